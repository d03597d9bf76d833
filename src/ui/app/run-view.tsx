import { useEffect, useMemo, useState } from "preact/hooks";
import { api, useApi, withToken, type RunDetail, type StepDetail } from "./api.js";
import { ModelCalls } from "./calls-view.js";
import { cost, count, duration, runLink, shown, when } from "./format.js";
import { PendingCard, WaveActions } from "./inbox-view.js";
import { RunOutput } from "./grounded-output.js";
import { LeftAloneMark } from "./left-alone-mark.js";
import { LimitWaitMark } from "./limit-wait-mark.js";

/** One run as it happens: its facts, what it waits for, its timeline and plans, its steps and every model call. */
export function RunView({ runId }: { runId: string }) {
  const [drawn, setDrawn] = useState(0);
  // The timeline's frame is drawn after the page's own first paint: a plan of thousands of steps takes it a while.
  const [framed, setFramed] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTimeout(() => setFramed(true)));
    return () => cancelAnimationFrame(frame);
  }, []);
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
        <LimitWaitMark row={row} />
        <LeftAloneMark row={row} />
      </div>
      <dl class="facts">
        {row.leftAlone === undefined ? null : (
          <>
            <dt>left alone</dt>
            <dd data-testid="left-alone-reason">by planloop serve: {row.leftAlone} (planloop runs resume continues it by hand)</dd>
          </>
        )}
        <dt>entry</dt>
        <dd>{row.entry}</dd>
        <dt>task</dt>
        <dd>{row.task || "-"}</dd>
        <dt>plan</dt>
        <dd>
          {data.trace.versions.length === 0 ? "-" : `v${data.trace.versions.at(-1)!.version} (current) of ${data.trace.versions.length}`}
        </dd>
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
      {data.forkedFrom && (
        <p class="note" data-testid="forked-from">
          Rerun of <a href={runLink(data.forkedFrom.runId)}>{data.forkedFrom.runId}</a> from step <code>{data.forkedFrom.step}</code>: the
          steps that had succeeded before it were reused.
        </p>
      )}
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
          <RunOutput output={result.output} provenance={result.provenance} />
        </>
      )}
      {data.pending.length > 0 && (
        <>
          <h2>Waiting for</h2>
          {data.canDecide && <WaveActions items={data.pending} done={reload} />}
          {data.pending.map((item) => (
            <PendingCard item={item} canDecide={data.canDecide} done={reload} />
          ))}
        </>
      )}
      <h2>Timeline and plans</h2>
      {framed ? (
        <iframe
          class="trace"
          title="timeline"
          sandbox="allow-scripts"
          key={drawn}
          src={withToken(`/api/runs/${encodeURIComponent(runId)}/trace.html`)}
        />
      ) : (
        <div class="trace quiet">drawing the timeline…</div>
      )}
      {data.stepCount > 0 && <Steps runId={runId} detail={data} />}
      <h2>Model calls ({data.modelCalls.length})</h2>
      <ModelCalls calls={data.modelCalls} detail={data} />
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

/** How many steps a page of `/api/runs/:id/steps` asks for. */
const stepsPage = 5_000;

/**
 * The run's steps: the first ones come with the page; asked for all, the rest are read a page
 * at a time (the timeline above draws every one either way).
 */
function Steps({ runId, detail }: { runId: string; detail: RunDetail }) {
  // A code-mode program's calls are steps to look at, not to rerun from: forkRun takes plan steps.
  const stopped = detail.row.status !== "running" && detail.row.status !== "waiting" && detail.row.entry !== "codeMode";
  const [more, setMore] = useState<{ steps: StepDetail[]; loading: boolean; error?: string } | undefined>(undefined);
  // The page moved (the run did): steps read before are read again when asked.
  useEffect(() => setMore(undefined), [detail]);
  const listed = more?.loading === false && more.error === undefined ? more.steps : detail.steps;
  const args = useMemo(() => argsByStep(detail), [detail]);
  const showAll = async () => {
    const steps = [...detail.steps];
    setMore({ steps, loading: true });
    try {
      while (steps.length < detail.stepCount) {
        const page = await api<{ steps: StepDetail[]; stepCount: number }>(
          `/api/runs/${encodeURIComponent(runId)}/steps?from=${steps.length}&limit=${stepsPage}`,
        );
        if (page.steps.length === 0) break;
        steps.push(...page.steps);
      }
      setMore({ steps, loading: false });
    } catch (error) {
      setMore({ steps, loading: false, error: (error as Error).message });
    }
  };
  return (
    <>
      <h2>Steps ({detail.stepCount.toLocaleString("en")})</h2>
      <table class="steps">
        <thead>
          <tr>
            <th>step</th>
            <th>status</th>
            <th>arguments</th>
            <th class="num">attempts</th>
            <th class="num">took</th>
            <th>output or error</th>
            {stopped && <th />}
          </tr>
        </thead>
        <tbody>
          {listed.map((step) => {
            const record = step.record;
            const took =
              record?.startedAt !== undefined && record.endedAt !== undefined ? duration(record.endedAt - record.startedAt) : "-";
            return (
              <tr data-step={step.stepKey}>
                <td>
                  <code>{step.stepKey}</code>
                  {record?.tool !== undefined && (
                    <span class="quiet">
                      {" "}
                      <code>{record.tool}</code> of program {record.program}
                    </span>
                  )}
                  {step.runId.includes("/") && <span class="quiet"> in {step.runId.slice(step.runId.indexOf("/") + 1)}</span>}
                </td>
                <td>
                  <span class={`badge ${record?.status ?? "running"}`}>{record?.status ?? "running"}</span>
                </td>
                <td>
                  <code>{argsText(args.get(step.stepKey))}</code>
                </td>
                <td class="num">{record?.attempts ?? step.starts}</td>
                <td class="num">{took}</td>
                <td>
                  <details>
                    <summary>{record?.error ?? (record?.output === undefined ? "-" : shown(record.output).slice(0, 120))}</summary>
                    <pre>{record?.error ?? shown(record?.output ?? "")}</pre>
                  </details>
                </td>
                {stopped && (
                  <td>
                    <RerunFrom step={step} args={args.get(step.stepKey)} />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {listed.length < detail.stepCount && (
        <button class="more" disabled={more?.loading === true} onClick={() => void showAll()}>
          {more?.loading ? "reading the steps…" : `Show all ${detail.stepCount.toLocaleString("en")} steps`}
        </button>
      )}
      {more?.error && (
        <p class="problem" role="alert">
          {more.error}
        </p>
      )}
    </>
  );
}

function argsText(args: unknown): string {
  const text = args === undefined ? "" : JSON.stringify(args);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Each step's arguments as the last plan version that has it shows them (secret values masked). */
function argsByStep(detail: RunDetail): Map<string, unknown> {
  const args = new Map<string, unknown>();
  for (const version of detail.trace.versions) for (const step of version.steps) args.set(step.id, step.args);
  return args;
}

/** Rerun from this step as a new run: the steps that succeeded before it are reused; its arguments may be changed first. */
function RerunFrom({ step, args }: { step: StepDetail; args: unknown }) {
  const shownArgs = args === undefined ? "" : JSON.stringify(args, null, 2);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(shownArgs);
  const [outcome, setOutcome] = useState<{ error?: string; command?: string } | undefined>(undefined);
  const send = async () => {
    let body: Record<string, unknown> = { step: step.stepKey };
    if (text !== shownArgs) {
      try {
        body = { ...body, args: JSON.parse(text) as unknown };
      } catch (error) {
        return setOutcome({ error: `the arguments are not JSON: ${(error as Error).message}` });
      }
    }
    try {
      const forked = await api<{ runId: string; continued: boolean; command?: string }>(
        `/api/runs/${encodeURIComponent(step.runId)}/fork`,
        body,
      );
      if (forked.continued) location.hash = runLink(forked.runId);
      else setOutcome({ command: `Run ${forked.runId} was made; continue it with: ${forked.command}` });
    } catch (error) {
      setOutcome({ error: (error as Error).message });
    }
  };
  if (!open) return <button onClick={() => setOpen(true)}>Rerun from here</button>;
  return (
    <div class="rerun">
      <textarea name="args" rows={4} value={text} onInput={(event) => setText((event.target as HTMLTextAreaElement).value)} />
      <button onClick={() => void send()}>Rerun</button>
      {outcome?.error && (
        <p class="problem" role="alert">
          {outcome.error}
        </p>
      )}
      {outcome?.command && <pre>{outcome.command}</pre>}
    </div>
  );
}
