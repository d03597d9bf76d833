import { randomUUID } from "node:crypto";
import { effectOf } from "../core/tools/define-tool.js";
import { shown } from "../core/errors.js";
import { Budget, type BudgetBreach } from "../core/budget.js";
import { remoteToolCalls, type RemoteCall } from "./step-runner.js";
import { EventHub } from "../core/events.js";
import { createRunSignal, type AbortCause } from "../core/run-signal.js";
import type { CallScope } from "../core/tools/guarded-call.js";
import { defaultMaxRecoveries } from "../journal/checkpoints.js";
import type { Checkpoints } from "../journal/checkpoint-writer.js";
import type { PlanStep } from "../plan/plan-schema.js";
import type { PlanGraph } from "../plan/graph/plan-graph.js";
import type { PlanConfig } from "./execution-options.js";
import type { StepRecord } from "./execution-result.js";
import type { WaitingStep } from "./resume-state.js";
import { copyTextKeyed, ownValue, textKeyed } from "../core/records.js";

/**
 * A step's record while the run goes on: no status until it ends. The fields a succeeded
 * step has exist from the start (undefined until set), so the record keeps one shape as
 * the step starts and ends; `error` is added only to a step that has one. A succeeded
 * record is final as it is and is handed out without a copy.
 */
export interface LiveRecord {
  status: StepRecord["status"] | undefined;
  output: unknown;
  attempts: number;
  startedAt: number | undefined;
  endedAt: number | undefined;
  error?: string;
}

export function liveRecord(saved?: StepRecord): LiveRecord {
  const record: LiveRecord = {
    status: saved?.status,
    output: saved?.output,
    attempts: saved?.attempts ?? 0,
    startedAt: saved?.startedAt,
    endedAt: saved?.endedAt,
  };
  if (saved?.error !== undefined) record.error = saved.error;
  return record;
}

/** The record as results show it: only the fields that have a value. */
export function finalRecord(record: LiveRecord): StepRecord {
  const { status, output, error, attempts, startedAt, endedAt } = record;
  if (status === "succeeded" && startedAt !== undefined && endedAt !== undefined && error === undefined && !("error" in record)) {
    return record as StepRecord;
  }
  const final: StepRecord = { status: status ?? "skipped", attempts };
  if (output !== undefined) final.output = output;
  if (error !== undefined) final.error = error;
  if (startedAt !== undefined) final.startedAt = startedAt;
  if (endedAt !== undefined) final.endedAt = endedAt;
  return final;
}

/** How a step ended, as its runner reports it. */
export type StepOutcome =
  | { status: "succeeded"; output: unknown }
  | { status: "failed"; error: string }
  | { status: "cancelled"; error: string }
  | { status: "waiting"; error: string; waiting: WaitingStep };

/** A step whose runner threw where it must not: it fails with what was thrown, never hangs. */
export function unexpectedOutcome(error: unknown): StepOutcome {
  return { status: "failed", error: `unexpected error in the executor: ${shown(error)}` };
}

/** The mutable record of one plan run; the scheduler's hooks and the step runners change it. */
export interface PlanRun {
  config: PlanConfig;
  steps: PlanStep[];
  graph: PlanGraph;
  records: LiveRecord[];
  /** Steps paused for a human, by index: from the resumed state, then from this run. */
  waiting: Map<number, WaitingStep>;
  /** Tool steps whose call was running when the process stopped, by index (taken when the step runs). */
  interrupted: Set<number>;
  /** Steps a crash cut short more often in a row than `maxRecoveries` allows, with the count: they fail, not run. */
  cutTooOften: Map<number, number>;
  budget: Budget;
  events: EventHub;
  signal: AbortSignal;
  abortCause(): AbortCause | undefined;
  budgetBreach: BudgetBreach | undefined;
  /** Steps whose output asked for a replan, with the reason. */
  replanRequests: Array<{ stepId: string | number; reason: string }>;
  /** Streamed steps that could not join the plan, and a stream that broke. */
  streamProblems: string[];
  toolCallCounts: Record<string, number>;
  /** What every tool step's call goes through the guarded call with. */
  callScope: CallScope;
  /** Where admitted tool calls run when a `runner` sends them to workers. */
  remoteCall: RemoteCall | undefined;
  /** The run's id (the store's key, and the first part of every idempotency key). */
  runId: string;
  /** Which run of that id this is, for its jobs on workers (see `incarnationOf`). */
  incarnation: string | undefined;
  /** Where every step's start and end is written, for a durable run. */
  checkpoints: Checkpoints | undefined;
  /** Milliseconds since the run started (resumed runs continue their count). */
  elapsed(): number;
  /** Told when a step starts (the order of ready steps learns from it). */
  onStepStarted?: ((index: number, at: number) => void) | undefined;
  /** Told how long each started step took to end, and whether it succeeded. */
  onStepEnded?: ((index: number, ms: number, ok: boolean) => void) | undefined;
  dispose(): void;
}

/**
 * A run's jobs on workers belong to this run of its id: one without a store may use the id
 * again for a new run (a new incarnation); a durable one is the same run after a crash.
 */
export function incarnationOf(identity: { checkpoints?: Checkpoints | undefined }): string | undefined {
  return identity.checkpoints === undefined ? randomUUID().slice(0, 8) : undefined;
}

/** The lease token of a durable run's owner (its jobs on workers name it). */
export function ownerOf(identity: { checkpoints?: Checkpoints | undefined }): number | undefined {
  return identity.checkpoints?.durability.lease?.token;
}

/** When the budget's deadline passes, on the wall clock (workers in other processes read it). */
export function deadlineOf(budget: Budget): () => number | undefined {
  return () => {
    const remaining = budget.remainingMs();
    return remaining === undefined ? undefined : Date.now() + Math.max(0, remaining);
  };
}

export function startPlanRun(config: PlanConfig, identity: { runId: string; checkpoints?: Checkpoints | undefined }): PlanRun {
  const saved = config.resume;
  const budget =
    config.budget instanceof Budget
      ? config.budget.child()
      : new Budget(config.budget, { clock: config.clock, ...(saved ? { elapsedMs: saved.elapsedMs, spent: saved.usage } : {}) });
  // A durable run stops too when its lease is lost (another process took it over).
  const lost = identity.checkpoints?.durability.lease?.signal;
  const runSignal = createRunSignal({ signal: config.signal, lost, clock: config.clock, remainingMs: budget.remainingMs() });
  const graph = config.graph;
  const waiting = new Map<number, WaitingStep>();
  for (const [key, entry] of Object.entries(saved?.waiting ?? {})) {
    const index = graph.indexOf.get(key);
    if (index !== undefined) waiting.set(index, entry);
  }
  const toolCallCounts = copyTextKeyed(saved?.toolCallCounts);
  const incarnation = incarnationOf(identity);
  const interrupted = new Set<number>();
  const cutTooOften = new Map<number, number>();
  const maxRecoveries = identity.checkpoints?.durability.maxRecoveries ?? defaultMaxRecoveries;
  for (const key of saved?.interrupted ?? []) {
    const index = graph.indexOf.get(key);
    if (index === undefined) continue;
    if (!waiting.has(index)) interrupted.add(index);
    const times = saved?.cutShort?.[key] ?? 1;
    if (times > maxRecoveries) cutTooOften.set(index, times);
  }
  const run: PlanRun = {
    config,
    steps: config.plan.steps,
    graph,
    records: startingRecords(graph.keys, saved?.steps, config.reuse),
    waiting,
    interrupted,
    cutTooOften,
    budget,
    events: new EventHub({ clock: config.clock, ...(config.onEvent ? { listener: config.onEvent } : {}) }),
    signal: runSignal.signal,
    abortCause: runSignal.cause,
    budgetBreach: undefined,
    replanRequests: [],
    streamProblems: [],
    toolCallCounts,
    callScope: {
      guard: config.guard,
      budget,
      callCounts: toolCallCounts,
      humans: { approvals: config.approvals, answers: config.answers, used: config.used },
      // Plan data flows into later steps' arguments: it is not cut to a model-sized preview.
      execution: { signal: runSignal.signal, step: 0, clock: config.clock, maxOutputChars: Infinity },
    },
    remoteCall:
      config.runner === undefined
        ? undefined
        : remoteToolCalls(config.runner, { runId: identity.runId, incarnation, owner: ownerOf(identity) }, deadlineOf(budget), (name) => {
            const tool = config.toolsByName.get(name);
            return tool === undefined ? undefined : effectOf(tool);
          }),
    runId: identity.runId,
    incarnation,
    checkpoints: identity.checkpoints,
    elapsed: () => budget.elapsedMs(),
    dispose: runSignal.dispose,
  };
  return run;
}

/**
 * Each step's record as the run starts: from the resumed state, or reused from before a
 * replan, else empty. Without either, no key is looked up: a lookup by a step id that is not
 * a number costs V8 a search of its string table, per step.
 */
function startingRecords(
  keys: readonly string[],
  saved: Record<string, StepRecord> | undefined,
  reuse: Record<string, StepRecord>,
): LiveRecord[] {
  const reusing = Object.keys(reuse).length > 0;
  if (saved === undefined && !reusing) return keys.map(() => liveRecord());
  return keys.map((key) => restoredRecord(ownValue(saved, key) ?? (reusing ? reused(ownValue(reuse, key)) : undefined)));
}

function reused(record: StepRecord | undefined): StepRecord | undefined {
  return record?.status === "succeeded" ? record : undefined;
}

/** Succeeded and failed steps are final; any other step runs again when a run resumes. */
export function restoredRecord(saved: StepRecord | undefined): LiveRecord {
  if (saved && (saved.status === "succeeded" || saved.status === "failed")) return liveRecord(saved);
  const record = liveRecord();
  record.attempts = saved?.attempts ?? 0;
  return record;
}

/** The records of the steps that have ended, by id, as results show them. */
export function endedRecords(run: PlanRun): Record<string, StepRecord> {
  const ended = textKeyed<StepRecord>();
  run.records.forEach((record, index) => {
    if (record.status !== undefined) ended[run.graph.keys[index]!] = finalRecord(record);
  });
  return ended;
}

export function outputOf(run: PlanRun, key: string): { found: boolean; value?: unknown } {
  const index = run.graph.indexOf.get(key);
  if (index === undefined) return { found: false };
  if (isMissing(run, index)) return { found: true, value: missingResult(run.steps[index]!.id) };
  const record = run.records[index]!;
  return record.status === "succeeded" ? { found: true, value: record.output } : { found: false };
}

/** What a later step is shown of a step's result: its output, or the marker of a missing one. */
export function resultFor(run: PlanRun, index: number): unknown {
  return isMissing(run, index) ? missingResult(run.steps[index]!.id) : run.records[index]!.output;
}

/** An optional step that failed: the run goes on without its result. */
export function isMissing(run: PlanRun, index: number): boolean {
  return run.records[index]!.status === "failed" && run.steps[index]!.optional === true;
}

/**
 * What a placeholder of a missing result becomes, and what an agent step is shown of it: a
 * marker a reader cannot mistake for data, never the text of the error.
 */
export function missingResult(stepId: string | number): string {
  return `[missing: step ${stepId} is optional and failed; its result is not available]`;
}

/** One key for every attempt of a step's call in this run, also after a crash: `<runId>/<step id>`. */
export function idempotencyKeyOf(run: PlanRun, index: number): string {
  return `${run.runId}/${run.graph.keys[index]!}`;
}
