import { sleep } from "../core/clock.js";
import { shown } from "../core/errors.js";
import { isPromiseLike, settledLater, type MaybePromise } from "../core/maybe-async.js";
import { callDigest } from "../core/tools/approvals.js";
import { guardedCallWith, type CallResult, type GuardedCallOptions } from "../core/tools/guarded-call.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import { substitutePlaceholders } from "../plan/placeholders.js";
import type { PlanProblem } from "./execution-options.js";
import type { PlanPendingCall } from "./execution-result.js";
import { endedRecords, finalRecord, idempotencyKeyOf, outputOf, type PlanRun, type StepOutcome } from "./live-run.js";
import { runAgentStep } from "./agent-step.js";
import { backoffDelay, isRetryable } from "./retry.js";
import { observe, watched } from "./step-observation.js";

/*
 * A plan step's life, all in this file. A step has no status until it ends; it starts
 * (`runStep`: `startedAt`, a `step-start` event), its tool step or agent step runs (each
 * attempt counted), and `transition` gives it exactly one of:
 *   succeeded  its tool or agent returned (and no check asked for a replan)
 *   failed     its call was refused or failed for good, its agent stopped short, its
 *              arguments could not be filled, or the executor hit a bug
 *   cancelled  the run stopped while it ran, or its agent ran out of time
 *   waiting    it paused for a human (approval or answer), or it never started because a
 *              step it depends on waits (`settleLeftovers`)
 *   skipped    a step it depends on failed, was cancelled or asked for a replan, or the
 *              run stopped before it started
 * A resumed run starts every step that is not succeeded or failed again.
 */

/**
 * Runs one step and records how it ended. A step that failed or was cancelled skips every
 * step after it, each with the reason. Never rejects: the scheduler only learns success.
 * Synchronous from start to end when the step's tool and checks are.
 */
export function runStep(run: PlanRun, index: number, done: (index: number, ok: boolean) => void): boolean | undefined {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.startedAt = run.elapsed();
  if (run.events.active) {
    run.events.emit(
      { type: "step-start", stepId: step.id, kind: step.tool ? "tool" : "agent", attempt: record.attempts + 1 },
      { stepId: step.id },
    );
  }
  let pending: MaybePromise<StepOutcome> | undefined;
  try {
    // A durable run commits this step's start, and the ends it depends on, before it runs.
    const committed = run.checkpoints === undefined ? undefined : startCheckpoint(run, index);
    if (committed !== undefined) pending = Promise.resolve(committed).then(() => runStepWork(run, index));
    else if (step.tool) pending = runToolStep(run, index, (outcome) => concludeLater(run, index, outcome, done));
    else pending = runAgentStep(run, index);
  } catch (error) {
    pending = unexpected(error);
  }
  // A tool step still running: it concludes itself when it ends.
  if (pending === undefined) return undefined;
  // Written out rather than with `andThen`: no closures for the many steps that end at once.
  if (isPromiseLike(pending)) {
    Promise.resolve(pending).then(
      (outcome) => concludeLater(run, index, outcome, done),
      (error: unknown) => concludeLater(run, index, unexpected(error), done),
    );
    return undefined;
  }
  let concluded: MaybePromise<boolean>;
  try {
    concluded = concludeStep(run, index, pending);
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
function concludeLater(run: PlanRun, index: number, outcome: StepOutcome, done: (index: number, ok: boolean) => void): void {
  let concluded: MaybePromise<boolean>;
  try {
    concluded = concludeStep(run, index, outcome);
  } catch (error) {
    done(index, failLate(run, index, error));
    return;
  }
  if (!isPromiseLike(concluded)) {
    done(index, concluded);
    return;
  }
  Promise.resolve(concluded).then(
    (ok) => done(index, ok),
    (error: unknown) => done(index, failLate(run, index, error)),
  );
}

/** A step's work as a promise, for the paths that wait on something first (a durable run's commit). */
function runStepWork(run: PlanRun, index: number): MaybePromise<StepOutcome> {
  if (!run.steps[index]!.tool) return runAgentStep(run, index);
  return settledLater((finish) => runToolStep(run, index, finish));
}

/** Writes the step's start and commits it with what is buffered (the ends it depends on). */
function startCheckpoint(run: PlanRun, index: number): MaybePromise<void> {
  const checkpoints = run.checkpoints!;
  const attempt = run.records[index]!.attempts + 1;
  checkpoints.write([{ kind: "step-start", stepKey: run.graph.keys[index]!, attempt, idempotencyKey: idempotencyKeyOf(run, index) }]);
  return checkpoints.commit();
}

/**
 * The last resort when recording a step's end threw: the step fails (if it had not ended)
 * rather than leaving the scheduler waiting for it, so a run never hangs on a bug.
 */
function failLate(run: PlanRun, index: number, error: unknown): boolean {
  if (run.records[index]!.status !== undefined) return run.records[index]!.status === "succeeded";
  try {
    return recordEnd(run, index, unexpected(error), undefined);
  } catch {
    run.records[index]!.status = "failed";
    return false;
  }
}

function unexpected(error: unknown): StepOutcome {
  return { status: "failed", error: `unexpected error in the executor: ${shown(error)}` };
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
    if (outcome.status === "succeeded") {
      if (step.tool !== undefined) run.config.latencies?.record(step, record.endedAt - record.startedAt);
      run.onStepTook?.(index, record.endedAt - record.startedAt);
    }
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
    },
  ]);
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

/** The call id of a tool step, the key to approve it with. */
export function toolStepCallId(stepId: string | number): string {
  return `step:${stepId}`;
}

/**
 * Runs a tool step: placeholders in its args are replaced by earlier outputs, the call goes
 * through the guarded call, and a timeout or thrown error is retried with exponential
 * backoff. A step whose checks and tool are synchronous finishes synchronously.
 */
export function runToolStep(run: PlanRun, index: number, finish: (outcome: StepOutcome) => void): StepOutcome | undefined {
  const step = run.steps[index]!;
  const paused = run.waiting.get(index);
  run.waiting.delete(index);
  // Arguments the plan check parsed held no placeholder: there is nothing to substitute.
  const argsParsed = !paused && index in run.config.parsedArgs;
  let args: unknown = step.args ?? {};
  if (paused?.kind === "tool") {
    args = paused.pending.arguments;
  } else if (!argsParsed) {
    const options = { isStep: (key: string) => run.graph.indexOf.has(key), self: run.graph.keys[index] };
    const substituted = substitutePlaceholders(args, (key) => outputOf(run, key), options);
    if (!substituted.ok) return { status: "failed", error: substituted.error };
    args = substituted.value;
  }
  const tool = argsParsed ? run.config.toolsByName.get(step.tool!) : undefined;
  const call: StepCall = {
    scope: run.callScope,
    // Only calls that can run again after a crash carry a key: a durable run's, and those
    // sent to workers (a worker that dies hands its job to another).
    call: {
      id: toolStepCallId(step.id),
      name: step.tool!,
      arguments: args,
      idempotencyKey: run.checkpoints === undefined && run.config.runner === undefined ? undefined : idempotencyKeyOf(run, index),
    },
    step: 0,
    parsed: tool === undefined ? undefined : { tool, args: run.config.parsedArgs[index] },
    waiting: paused?.kind === "tool" ? { kind: paused.pending.kind, key: paused.pending.id } : undefined,
    paused: paused?.kind === "tool" ? paused.pending : undefined,
    attempt: 0,
  };
  return attempt(run, index, call, finish);
}

/**
 * One attempt of a tool step, and the retries after it, in continuation style: the outcome
 * when it ended at once; else undefined, and `finish(outcome)` once it ends. While it runs,
 * the step waits on one reaction, not a chain of promises (a hundred thousand steps in
 * flight add up).
 */
function attempt(run: PlanRun, index: number, call: StepCall, finish: (outcome: StepOutcome) => void): StepOutcome | undefined {
  run.records[index]!.attempts += 1;
  call.attempt += 1;
  const then = (result: CallResult): StepOutcome | undefined => {
    const next = afterAttempt(run, index, call, result);
    if (!isPromiseLike(next)) return next;
    Promise.resolve(next).then(finish, (error: unknown) => finish(unexpected(error)));
    return undefined;
  };
  const now = guardedCallWith(call, (result) => {
    let outcome: StepOutcome | undefined;
    try {
      outcome = then(result);
    } catch (error) {
      outcome = unexpected(error);
    }
    if (outcome !== undefined) finish(outcome);
  });
  return now === undefined ? undefined : then(now);
}

/** The next attempt, after a retry's wait, as a value or a promise. */
function attemptUntilDone(run: PlanRun, index: number, call: StepCall): MaybePromise<StepOutcome> {
  return settledLater((finish) => attempt(run, index, call, finish));
}

function afterAttempt(run: PlanRun, index: number, call: StepCall, result: CallResult): MaybePromise<StepOutcome> {
  const { attempt } = call;
  const outcome = stepOutcomeOf(run, index, call, result);
  if (outcome.status !== "retry") return outcome;
  if (attempt >= run.config.retry.maxAttempts) return { status: "failed", error: outcome.error };
  // One approval, one call: an approved call that failed runs again only if its tool says a
  // repeat is harmless, or after a new approval (under a new id, so an old one cannot match).
  if (call.waiting?.kind === "approval") {
    if (run.config.toolsByName.get(call.call.name)?.idempotent !== true) return approveAgain(run, index, call, outcome.error);
    // The approval was taken by the first attempt; the retries of an idempotent call ride on it.
    call.approved = true;
  }
  const delayMs = backoffDelay(run.config.retry, attempt);
  const stepId = run.steps[index]!.id;
  run.events.emit({ type: "step-retry", stepId, attempt, delayMs, error: outcome.error }, { stepId });
  return sleep(delayMs, { clock: run.config.clock, signal: run.signal }).then(
    () => attemptUntilDone(run, index, call),
    (): StepOutcome => ({ status: "cancelled", error: "the run stopped while the step waited to retry" }),
  );
}

/** An approved call failed: the step waits for a new approval to try it once more. */
function approveAgain(run: PlanRun, index: number, call: StepCall, error: string): StepOutcome {
  // step:2, then step:2#2, step:2#3: the number of the approval asked for.
  const shown = call.paused!.id;
  const asked = /#(\d+)$/.exec(shown);
  const id = `${toolStepCallId(run.steps[index]!.id)}#${asked ? Number(asked[1]) + 1 : 2}`;
  const pending: PlanPendingCall = { ...call.paused!, id };
  const reason = `the approved call to "${pending.name}" failed (${error}); it runs again only with a new approval of ${id}`;
  return { status: "waiting", error: reason, waiting: { kind: "tool", pending } };
}

/** A tool step's call, the call it paused on before (if it did), and the attempts so far. */
type StepCall = GuardedCallOptions & { paused: PlanPendingCall | undefined; attempt: number };

type Attempt = StepOutcome | { status: "retry"; error: string };

/** A call's result as a step's: a refusal fails the step for good, a pause makes it wait. */
function stepOutcomeOf(run: PlanRun, index: number, call: StepCall, result: CallResult): Attempt {
  switch (result.kind) {
    case "ran":
      return attemptOf(result.outcome);
    case "answered":
      return { status: "succeeded", output: result.outcome.content };
    case "refused":
      if (result.outcome.error!.kind === "cancelled") return { status: "cancelled", error: result.outcome.error!.message };
      return { status: "failed", error: result.outcome.error!.message };
    case "pending": {
      const { paused } = call;
      const { name, id: callId } = call.call;
      const args = call.call.arguments;
      const pending: PlanPendingCall = paused ?? {
        id: String(callId),
        stepId: run.steps[index]!.id,
        callId,
        name,
        arguments: args,
        kind: result.reason,
        digest: callDigest(name, args),
      };
      if (paused === undefined && result.question !== undefined) pending.question = result.question;
      return { status: "waiting", error: `waits for ${pending.kind} of "${pending.name}"`, waiting: { kind: "tool", pending } };
    }
  }
}

function attemptOf(settled: ToolOutcome): Attempt {
  if (!settled.error) return { status: "succeeded", output: settled.content };
  if (settled.error.kind === "cancelled") return { status: "cancelled", error: settled.error.message };
  return isRetryable(settled.error)
    ? { status: "retry", error: settled.error.message }
    : { status: "failed", error: settled.error.message };
}
