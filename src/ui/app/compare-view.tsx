import { useEffect, useState } from "preact/hooks";
import { api, type RunDetail } from "./api.js";
import { cost, count, duration, runLink } from "./format.js";

/** Runs side by side (the four strategies on one task, or two models): their figures, and their timelines on one time axis. */
export function CompareView({ ids }: { ids: string[] }) {
  const [runs, setRuns] = useState<RunDetail[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    Promise.all(ids.map((id) => api<RunDetail>(`/api/runs/${encodeURIComponent(id)}?bars=1`))).then(setRuns, (failed: Error) =>
      setError(failed.message),
    );
  }, []);
  if (ids.length === 0) return <p class="quiet">Pick two runs or more in the list (the boxes on the left) and press Compare.</p>;
  if (error) return <p class="problem">{error}</p>;
  if (runs === undefined) return <p class="quiet">loading…</p>;
  const longest = Math.max(1, ...runs.map((run) => run.trace.durationMs || run.row.durationMs));
  return (
    <section>
      <h1>Compare</h1>
      <table class="compare">
        <thead>
          <tr>
            <th>run</th>
            <th>entry</th>
            <th>status</th>
            <th class="num">wall time</th>
            <th class="num">model calls</th>
            <th class="num">tokens</th>
            <th class="num">cost</th>
            <th class="num">steps</th>
            <th class="num">replans</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr>
              <td>
                <a href={runLink(run.row.runId)}>{run.row.runId}</a>
              </td>
              <td>{run.row.entry}</td>
              <td>
                <span class={`badge ${run.row.status}`}>{run.row.status}</span>
              </td>
              <td class="num">{duration(run.trace.durationMs || run.row.durationMs)}</td>
              <td class="num">{count(run.row.modelCalls)}</td>
              <td class="num">{count(run.row.tokens)}</td>
              <td class="num">{cost(run.row.costUsd)}</td>
              <td class="num">{run.row.steps}</td>
              <td class="num">{run.trace.replans.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Timelines (one time axis, from each run's start; {duration(longest)} across)</h2>
      {runs.map((run) => (
        <Lanes run={run} longest={longest} />
      ))}
    </section>
  );
}

function Lanes({ run, longest }: { run: RunDetail; longest: number }) {
  const { trace } = run;
  const lanes = Math.max(1, trace.lanes) + 1;
  // The trace's times are offsets from the run's start.
  const x = (at: number) => `${(at / longest) * 100}%`;
  const width = (from: number, to: number) => `${Math.max(0.3, ((to - from) / longest) * 100)}%`;
  return (
    <div class="lanes">
      <div class="lanes-label">{run.row.runId}</div>
      <svg width="100%" height={lanes * 14 + 4} role="img" aria-label={`timeline of ${run.row.runId}`}>
        {trace.modelCalls.map((call) => (
          <rect class="model-bar" x={x(call.startedAt)} y={2} width={width(call.startedAt, call.endedAt)} height={10}>
            <title>{call.purpose}</title>
          </rect>
        ))}
        {(trace.bars ?? []).map((bar) => (
          <rect
            class={`bar ${bar.status}`}
            x={x(bar.startedAt)}
            y={(bar.lane + 1) * 14 + 2}
            width={width(bar.startedAt, bar.endedAt)}
            height={10}
          >
            <title>
              {bar.stepId} ({bar.status}, {duration(bar.endedAt - bar.startedAt)})
            </title>
          </rect>
        ))}
      </svg>
    </div>
  );
}
