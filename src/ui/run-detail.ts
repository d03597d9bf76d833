import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";
import { modelCallsOf, type ModelCallView } from "../journal/model-calls.js";
import type { PendingCall } from "../core/tools/approvals.js";
import type { PendingPlan } from "../strategies/plan-review.js";
import { childrenOf, lastPause, pendingOf } from "../strategies/stored-runs.js";
import { summarizeTrace, type TraceSummary } from "../trace/trace-model.js";
import { storedRunEvents } from "../trace/stored-trace.js";
import { codeStepsOf, type CodeStep } from "../strategies/code-mode/code-steps.js";
import { maskSecrets } from "../trust/secrets.js";
import { rowOf, summaryOf, taskOf, type RunRow } from "./run-rows.js";
import { leftAloneReasons } from "../runs/left-alone.js";

/** Something a run waits for a person on, as the inbox lists it. */
export type InboxItem = (PendingCall | PendingPlan) & {
  runId: string;
  entry: string;
  task: string;
  /** The version of the plan the run was on when it stopped (a call's plan). */
  planVersion?: number;
};

/** A step as its run recorded its end: status, output, error, attempts and timings. */
export interface StepDetail {
  /** The run that keeps it (a strategy keeps each plan in a run of its own). */
  runId: string;
  stepKey: string;
  starts: number;
  record: unknown;
}

/** Everything the run page shows (`GET /api/runs/:id`). */
export interface RunDetail {
  row: RunRow;
  trace: TraceSummary;
  modelCalls: Array<ModelCallView & { runId: string }>;
  steps: StepDetail[];
  pending: InboxItem[];
  decisions: Array<{ runId: string; id: string; decision: unknown }>;
  /** The runs kept inside this one, oldest first. */
  inner: string[];
  /** The run and step this one reruns from (`forkRun`). */
  forkedFrom?: { runId: string; step: string };
  result?: unknown;
}

export async function runDetail(store: CheckpointStore, runId: string): Promise<RunDetail | undefined> {
  const run = await store.getRun(runId);
  if (run === undefined) return undefined;
  const children = await childrenOf(store, runId);
  const all = [run, ...children];
  const summary = summaryOf(run);
  const leftAlone = (await leftAloneReasons(store, [summary])).get(runId);
  return {
    row: { ...rowOf(summary, run, children), ...(leftAlone === undefined ? {} : { leftAlone }) },
    trace: summarizeTrace(storedRunEvents(run, children)),
    modelCalls: all.flatMap((each) => modelCallsOf(each.journal).map((call) => ({ ...call, runId: each.runId }))),
    steps: all.flatMap(stepsOf),
    pending: pendingItems(run, children),
    decisions: all.flatMap((each) =>
      each.journal.flatMap((entry) =>
        entry.kind === "human-decision" ? [{ runId: each.runId, id: entry.id, decision: entry.decision }] : [],
      ),
    ),
    inner: children.map((each) => each.runId),
    ...forkOrigin(run),
    ...(run.result === undefined ? {} : { result: run.result }),
  };
}

/** What one run waits for, without reading the rest of its page (a decision's check). */
export async function pendingFor(store: CheckpointStore, runId: string): Promise<InboxItem[] | undefined> {
  const run = await store.getRun(runId);
  return run === undefined ? undefined : pendingItems(run, await childrenOf(store, runId));
}

function pendingItems(run: StoredRun, children: readonly StoredRun[]): InboxItem[] {
  if (run.status === "finished") return [];
  const paused = lastPause(run, children);
  if (paused === undefined) return [];
  const plans = [run, ...children].flatMap((each) => each.journal.flatMap((entry) => (entry.kind === "plan" ? [entry.version] : [])));
  const planVersion = plans.length === 0 ? undefined : Math.max(...plans);
  const task = taskOf(run, children);
  return pendingOf(paused).map((item) => ({
    ...item,
    runId: run.runId,
    entry: run.entry,
    task,
    ...(planVersion === undefined || item.kind === "plan" ? {} : { planVersion }),
  }));
}

function stepsOf(run: StoredRun): StepDetail[] {
  const steps = new Map<string, StepDetail>();
  for (const entry of run.journal) {
    if (entry.kind === "step-start") {
      const step = steps.get(entry.stepKey) ?? { runId: run.runId, stepKey: entry.stepKey, starts: 0, record: undefined };
      steps.set(entry.stepKey, { ...step, starts: step.starts + 1 });
    } else if (entry.kind === "step-end") {
      const step = steps.get(entry.stepKey) ?? { runId: run.runId, stepKey: entry.stepKey, starts: 0, record: undefined };
      steps.set(entry.stepKey, { ...step, record: entry.record });
    }
  }
  // A code-mode program's calls: one step each, with the tool, arguments and outcome it had.
  for (const call of codeStepsOf(run.journal))
    steps.set(call.place, { runId: run.runId, stepKey: call.place, starts: call.starts, record: codeRecord(call) });
  return [...steps.values()];
}

/** A program's call as the steps table reads a step's record: its status, attempts, output or error, and times. */
function codeRecord(call: CodeStep): Record<string, unknown> {
  const { outcome, startedAt, endedAt } = call;
  return {
    status: call.status,
    attempts: call.starts,
    program: call.program,
    tool: call.tool,
    args: maskSecrets(call.arguments ?? {}),
    ...(outcome?.error ? { error: outcome.error.message } : outcome ? { output: outcome.content } : {}),
    ...(startedAt === undefined || endedAt === undefined ? {} : { startedAt, endedAt }),
  };
}

function forkOrigin(run: StoredRun): Pick<RunDetail, "forkedFrom"> {
  const forked = run.journal.find((entry) => entry.kind === "forked");
  return forked === undefined ? {} : { forkedFrom: { runId: forked.from, step: forked.step } };
}
