import { journalTime } from "../../core/clock.js";
import { defaultMaxRecoveries } from "../../journal/checkpoints.js";
import { raceAbort } from "../../core/abort.js";
import { shown } from "../../core/errors.js";
import { isPromiseLike, type MaybePromise } from "../../core/maybe-async.js";
import { previewOf } from "../../core/tools/tool-output.js";
import type { PlanProblem } from "../execution-options.js";
import { endedRecords, finalRecord, idempotencyKeyOf, unexpectedOutcome, type PlanRun, type StepOutcome } from "../live-run.js";
import { runAgentStep } from "./agent-step.js";
import { runToolStep, type StepDone } from "./tool-step.js";
import { runPollStep } from "./poll-step.js";
import { runWaitStep } from "./wait-step.js";
import { stepKind } from "../../plan/step-kind.js";

/*
 * A plan step's life: it starts and ends in this file, and runs as a tool step
 * (`tool-step.ts`: arguments, guarded call, retries) or an agent step (`agent-step.ts`). A
 * step has no status until it ends; it starts (`runStep`: `startedAt`, a `step-start`
 * event), runs (each attempt counted), and `transition` gives it exactly one of:
 *   succeeded  its tool or agent returned (and no check asked for a replan)
 *   failed     its call was refused or failed for good, its agent stopped short, its
 *              arguments could not be filled, or the executor hit a bug
 *   cancelled  the run stopped while it ran, or its agent ran out of time
 *   waiting    it paused for a human (approval or answer), a wait step's time or event, or a poll
 *              step's next call, or it never started because a step it depends on waits
 *              (`settleLeftovers`)
 *   skipped    a step it depends on failed, was cancelled or asked for a replan, or the
 *              run stopped before it started
 * A resumed run starts every step that is not succeeded or failed again.
 */

/**
 * Runs one step and records how it ended. A step that failed or was cancelled skips every
 * step after it, each with the reason (an optional step that failed does not: it is missing,
 * and counts as met for the steps after it). Ended at once: whether it succeeded; else undefined,
 * and `done(index, ok)` once it ends. Never throws. Synchronous from start to end when the
 * step's tool and checks are.
 */
export function runStep(run: PlanRun, index: number, done: StepDone): boolean | undefined {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.startedAt = run.elapsed();
  run.onStepStarted?.(index, record.startedAt);
  if (run.events.active) {
    run.events.emit({ type: "step-start", stepId: step.id, kind: stepKind(step), attempt: record.attempts + 1 }, { stepId: step.id });
  }
  if (run.checkpoints === undefined) return startWork(run, index, done);
  if (run.cutTooOften.size > 0 && run.cutTooOften.has(index)) return conclude(run, index, cutTooOften(run, index), done);
  // A timer's wait reaches nothing outside the run (no tool, no event taken): its start goes with the next commit.
  if (step.wait !== undefined && step.waitFor === undefined && step.tool === undefined) {
    writeStart(run, index);
    return startWork(run, index, done);
  }
  // A durable run commits this step's start, and the ends it depends on, before it runs.
  let committed: MaybePromise<void>;
  try {
    committed = startCheckpoint(run, index);
  } catch (error) {
    return conclude(run, index, unexpectedOutcome(error), done);
  }
  Promise.resolve(committed).then(
    () => report(index, startWork(run, index, done), done),
    (error: unknown) => concludeLater(run, index, unexpectedOutcome(error), done),
  );
  return undefined;
}

/** A step that a crash cut short more often in a row than `maxRecoveries` allows: it fails instead of running again. */
function cutTooOften(run: PlanRun, index: number): StepOutcome {
  const times = run.cutTooOften.get(index)!;
  run.cutTooOften.delete(index);
  const allowed = run.checkpoints?.durability.maxRecoveries ?? defaultMaxRecoveries;
  return {
    status: "failed",
    error:
      `step ${run.steps[index]!.id} was cut short ${times} times in a row (the process running it stopped each time), ` +
      `so it was not started again (maxRecoveries: ${allowed}); find out why it stops its process, then start a new run ` +
      "from this step with forkRun (planloop runs fork)",
  };
}

/** The step's work, a tool call or an agent's loop, and its conclusion: like `runStep`. */
function startWork(run: PlanRun, index: number, done: StepDone): boolean | undefined {
  let pending: MaybePromise<StepOutcome> | undefined;
  try {
    const kind = stepKind(run.steps[index]!);
    const step = run.steps[index]!;
    if (kind === "tool") pending = step.poll === undefined ? runToolStep(run, index, concludeLater, done) : runPollStep(run, index);
    else pending = kind === "wait" ? runWaitStep(run, index) : runAgentStep(run, index);
  } catch (error) {
    pending = unexpectedOutcome(error);
  }
  // A tool step still running concludes itself when it ends.
  if (pending === undefined) return undefined;
  if (!isPromiseLike(pending)) return conclude(run, index, pending, done);
  // Written out rather than with `andThen`: no closures for the many steps that end at once.
  Promise.resolve(pending).then(
    (outcome) => concludeLater(run, index, outcome, done),
    (error: unknown) => concludeLater(run, index, unexpectedOutcome(error), done),
  );
  return undefined;
}

/**
 * Records how a step ended and checks its output: whether it succeeded, or undefined when a
 * check is still looking (then `done` hears of it). Never throws.
 */
function conclude(run: PlanRun, index: number, outcome: StepOutcome, done: StepDone): boolean | undefined {
  let concluded: MaybePromise<boolean>;
  try {
    concluded = concludeStep(run, index, outcome);
  } catch (error) {
    return failLate(run, index, error);
  }
  if (!isPromiseLike(concluded)) return concluded;
  Promise.resolve(concluded).then(
    (ok) => done(index, ok),
    (error: unknown) => done(index, failLate(run, index, error)),
  );
  return undefined;
}

/** Concludes a step that ended later, and tells the scheduler; never throws. */
function concludeLater(run: PlanRun, index: number, outcome: StepOutcome, done: StepDone): void {
  report(index, conclude(run, index, outcome, done), done);
}

/** The scheduler no longer waits on a return value: an end known now goes to `done`. */
function report(index: number, ok: boolean | undefined, done: StepDone): void {
  if (ok !== undefined) done(index, ok);
}

/** Writes the step's start and commits it with what is buffered (the ends it depends on). */
function startCheckpoint(run: PlanRun, index: number): MaybePromise<void> {
  writeStart(run, index);
  return run.checkpoints!.commit();
}

/** Buffers the step's start, for the next commit. */
function writeStart(run: PlanRun, index: number): void {
  const attempt = run.records[index]!.attempts + 1;
  run.checkpoints!.write([
    { kind: "step-start", stepKey: run.graph.keys[index]!, attempt, idempotencyKey: idempotencyKeyOf(run, index), at: journalTime() },
  ]);
}

/**
 * The last resort when recording a step's end threw: the step fails (if it had not ended)
 * rather than leaving the scheduler waiting for it, so a run never hangs on a bug.
 */
function failLate(run: PlanRun, index: number, error: unknown): boolean {
  if (run.records[index]!.status !== undefined) return run.records[index]!.status === "succeeded";
  try {
    return recordEnd(run, index, unexpectedOutcome(error), undefined);
  } catch {
    run.records[index]!.status = "failed";
    return false;
  }
}

function concludeStep(run: PlanRun, index: number, outcome: StepOutcome): MaybePromise<boolean> {
  if (outcome.status !== "succeeded" || !watched(run, index)) return recordEnd(run, index, outcome, undefined);
  return observe(run, index, outcome.output).then((concern) => recordEnd(run, index, outcome, concern));
}

function recordEnd(run: PlanRun, index: number, outcome: StepOutcome, concern: string | undefined): boolean {
  const step = run.steps[index]!;
  transition(run, index, outcome);
  if (concern !== undefined) {
    run.replanRequests.push({ stepId: step.id, reason: concern });
    skipAfter(run, index, `step ${step.id} asked for a replan: ${concern}`);
    tellProblem(run, step.id);
    return false;
  }
  // An optional step that failed is missing, not a failure: the steps after it run without it.
  if (outcome.status === "failed" && step.optional === true) return true;
  if (outcome.status === "failed" || outcome.status === "cancelled") {
    skipAfter(run, index, `step ${step.id} ${outcome.status === "failed" ? "failed" : "was cancelled"}`);
  }
  if (outcome.status === "failed") tellProblem(run, step.id);
  return outcome.status === "succeeded";
}

function tellProblem(run: PlanRun, stepId: string | number): void {
  const listener = run.config.onProblem;
  if (!listener) return;
  try {
    // The records are gathered only if the listener reads them: a run where thousands of
    // steps fail would otherwise copy every record for every failure.
    let steps: PlanProblem["steps"] | undefined;
    listener({
      stepId,
      get steps() {
        return (steps ??= endedRecords(run));
      },
      replanRequests: [...run.replanRequests],
    });
  } catch (error) {
    process.emitWarning(`planloop: an onProblem listener threw and was ignored: ${shown(error)}`);
  }
}

/**
 * Skips every step after `index`. A step that has ended already was skipped by an earlier
 * failure together with everything after it, so the walk stops there: however many steps
 * fail, each step is skipped once and looked at once per dependency.
 */
function skipAfter(run: PlanRun, index: number, reason: string): void {
  const dependents = run.graph.dependents;
  const stack = [index];
  while (stack.length > 0) {
    for (const dependent of dependents.linked(stack.pop()!)) {
      if (run.records[dependent]!.status !== undefined) continue;
      transition(run, dependent, { status: "skipped", error: reason });
      stack.push(dependent);
    }
  }
}

/** How a step's record changes: a runner's outcome, or a step that never ran. */
export type StepTransition = StepOutcome | { status: "skipped"; error: string } | { status: "waiting"; error: string; waiting?: undefined };

/**
 * Records a step's end and announces it with a `step-end` event. The one exception is a step
 * held back by a waiting dependency (`waiting` without a paused call): it never started, so
 * it is recorded as waiting and not announced.
 */
export function transition(run: PlanRun, index: number, outcome: StepTransition): void {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.status = outcome.status;
  if (outcome.status === "waiting" && outcome.waiting === undefined) {
    record.error = outcome.error;
    return;
  }
  if (record.startedAt !== undefined) {
    record.endedAt = run.elapsed();
    const ok = outcome.status === "succeeded";
    if (ok && step.tool !== undefined) run.config.latencies?.record(step, record.endedAt - record.startedAt);
    run.onStepEnded?.(index, record.endedAt - record.startedAt, ok);
  }
  if (outcome.status === "succeeded") record.output = outcome.output;
  else record.error = outcome.error;
  if (outcome.status === "waiting") run.waiting.set(index, outcome.waiting);
  run.checkpoints?.write([
    {
      kind: "step-end",
      stepKey: run.graph.keys[index]!,
      record: finalRecord(record),
      ...(outcome.status === "waiting" ? { waiting: outcome.waiting } : {}),
      // What the run had spent by now, so a run continued after a crash keeps counting from here.
      totals: { usage: run.budget.spent, elapsedMs: run.elapsed() },
      at: journalTime(),
    },
  ]);
  // Kept as it happens, not with a later commit: a step that finished is never run again.
  run.checkpoints?.commitSoon();
  if (!run.events.active) return;
  run.events.emit(
    () => ({
      type: "step-end",
      stepId: step.id,
      status: outcome.status,
      attempts: record.attempts,
      durationMs: record.startedAt === undefined ? 0 : record.endedAt! - record.startedAt,
      ...(outcome.status === "succeeded" ? { preview: previewOf(outcome.output) } : { error: outcome.error }),
    }),
    { stepId: step.id },
  );
}

/*
 * What looks at a step's output when it succeeds: the tool's `check` and the run's `observe`
 * hook. A concern they raise asks for a replan (see `recordEnd`).
 */

/** Whether anything looks at this step's output; most runs skip the check entirely. */
export function watched(run: PlanRun, index: number): boolean {
  const tool = run.steps[index]!.tool;
  return run.config.observe !== undefined || (tool !== undefined && run.config.toolsByName.get(tool)?.check !== undefined);
}

/** The tool's `check` and the run's `observe` hook; a throwing check counts as a concern. */
export async function observe(run: PlanRun, index: number, output: unknown): Promise<string | undefined> {
  const step = run.steps[index]!;
  const check = step.tool ? run.config.toolsByName.get(step.tool)?.check : undefined;
  try {
    const concern = check?.(output) || (await observation(run, { step, output }))?.replan || undefined;
    return concern !== undefined && run.config.acknowledged.includes(concern) ? undefined : concern;
  } catch (error) {
    // A run that stopped while `observe` looked keeps the step's output, with no concern.
    if (run.signal.aborted) return undefined;
    return `checking the output failed: ${shown(error)}`;
  }
}

/** The run's `observe` hook, raced against the run's signal: a hook that never answers cannot outlive the run. */
function observation(run: PlanRun, seen: { step: PlanRun["steps"][number]; output: unknown }) {
  const { observe } = run.config;
  return observe === undefined
    ? undefined
    : raceAbort(
        Promise.resolve().then(() => observe(seen)),
        run.signal,
      );
}
