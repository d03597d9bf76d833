import { useState } from "preact/hooks";
import { useApi, withToken, type RunDetail, type StepDetail } from "./api.js";
import { ModelCalls } from "./calls-view.js";
import { cost, count, duration, shown, when } from "./format.js";
import { PendingCard } from "./inbox-view.js";

/** One run as it happens: its facts, what it waits for, its timeline and plans, its steps and every model call. */
export function RunView({ runId }: { runId: string }) {
  const [drawn, setDrawn] = useState(0);
  const moved = (changed: string[]) => {
    const mine = changed.some((id) => id === runId || id.startsWith(`${runId}/`));
    if (mine) setDrawn((n) => n + 1);
    return mine;
  };
  const { data, error, reload } = useApi<RunDetail>(`/api/runs/${encodeURIComponent(runId)}`, moved);
  if (error && data === undefined) return <p class="problem">{error}</p>;
  if (data === undefined) return <p class="quiet">loading…</p>;
  const { row, result } = data;
  return (
    <section>
      <div class="toolbar">
        <h1>
          Run <code>{row.runId}</code>
        </h1>
        <span class={`badge ${row.status}`} data-testid="run-status">
          {row.status}
        </span>
      </div>
      <dl class="facts">
        <dt>entry</dt>
        <dd>{row.entry}</dd>
        <dt>task</dt>
        <dd>{row.task || "-"}</dd>
        <dt>steps</dt>
        <dd>{row.steps}</dd>
        <dt>model calls</dt>
        <dd>{count(row.modelCalls)}</dd>
        <dt>tokens</dt>
        <dd>{count(row.tokens)}</dd>
        <dt>cost</dt>
        <dd>{cost(row.costUsd)}</dd>
        <dt>started</dt>
        <dd>{when(row.createdAt)}</dd>
        <dt>duration</dt>
        <dd>{duration(row.durationMs)}</dd>
      </dl>
      {data.continuation && (
        <p class={data.continuation.state === "failed" ? "problem" : "note"}>
          {data.continuation.state === "continuing"
            ? "Continuing the run with the decision…"
            : data.continuation.state === "continued"
              ? "The run was continued with the decision."
              : `The run could not be continued: ${data.continuation.error}`}
        </p>
      )}
      {result?.reason && <p class="note">{result.reason}</p>}
      {result?.output !== undefined && (
        <>
          <h2>Output</h2>
          <pre class="output">{shown(result.output)}</pre>
        </>
      )}
      {data.pending.length > 0 && (
        <>
          <h2>Waiting for</h2>
          {data.pending.map((item) => (
            <PendingCard item={item} canDecide={data.canDecide} done={reload} />
          ))}
        </>
      )}
      <h2>Timeline and plans</h2>
      <iframe
        class="trace"
        title="timeline"
        sandbox="allow-scripts"
        key={drawn}
        src={withToken(`/api/runs/${encodeURIComponent(runId)}/trace.html`)}
      />
      {data.steps.length > 0 && <Steps steps={data.steps} />}
      <h2>Model calls ({data.modelCalls.length})</h2>
      <ModelCalls calls={data.modelCalls} />
      {data.decisions.length > 0 && (
        <>
          <h2>Decisions</h2>
          <ul>
            {data.decisions.map((each) => (
              <li>
                <code>{each.id}</code>: {shown(each.decision)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Steps({ steps }: { steps: StepDetail[] }) {
  return (
    <>
      <h2>Steps</h2>
      <table class="steps">
        <thead>
          <tr>
            <th>step</th>
            <th>status</th>
            <th class="num">attempts</th>
            <th class="num">took</th>
            <th>output or error</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step) => {
            const record = step.record;
            const took =
              record?.startedAt !== undefined && record.endedAt !== undefined ? duration(record.endedAt - record.startedAt) : "-";
            return (
              <tr data-step={step.stepKey}>
                <td>
                  <code>{step.stepKey}</code>
                  {step.runId.includes("/") && <span class="quiet"> in {step.runId.slice(step.runId.indexOf("/") + 1)}</span>}
                </td>
                <td>
                  <span class={`badge ${record?.status ?? "running"}`}>{record?.status ?? "running"}</span>
                </td>
                <td class="num">{record?.attempts ?? step.starts}</td>
                <td class="num">{took}</td>
                <td>
                  <details>
                    <summary>{record?.error ?? (record?.output === undefined ? "-" : shown(record.output).slice(0, 120))}</summary>
                    <pre>{record?.error ?? shown(record?.output ?? "")}</pre>
                  </details>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
