import { sleep } from "../core/clock.js";
import { isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { guardedCall, type CallResult, type GuardedCallOptions } from "../core/tools/guarded-call.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import { substitutePlaceholders } from "../plan/placeholders.js";
import type { PlanPendingCall } from "./execution-result.js";
import { outputOf, type PlanRun, type StepOutcome } from "./live-run.js";
import { backoffDelay, isRetryable } from "./retry.js";

/** The call id of a tool step, the key to approve it with. */
export function toolStepCallId(stepId: string | number): string {
  return `step:${stepId}`;
}

/**
 * Runs a tool step: placeholders in its args are replaced by earlier outputs, the call goes
 * through the guarded call, and a timeout or thrown error is retried with exponential
 * backoff. A step whose checks and tool are synchronous finishes synchronously.
 */
export function runToolStep(run: PlanRun, index: number): MaybePromise<StepOutcome> {
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
    call: { id: toolStepCallId(step.id), name: step.tool!, arguments: args },
    step: 0,
    parsed: tool === undefined ? undefined : { tool, args: run.config.parsedArgs[index] },
    waiting: paused?.kind === "tool" ? { kind: paused.pending.kind, key: String(paused.pending.callId) } : undefined,
    paused: paused?.kind === "tool" ? paused.pending : undefined,
    attempt: 0,
  };
  return attemptUntilDone(run, index, call);
}

function attemptUntilDone(run: PlanRun, index: number, call: StepCall): MaybePromise<StepOutcome> {
  run.records[index]!.attempts += 1;
  call.attempt += 1;
  const attempted = guardedCall(call);
  // No closure for the common case, an attempt that ended at once.
  if (!isPromiseLike(attempted)) return afterAttempt(run, index, call, attempted);
  return Promise.resolve(attempted).then((result) => afterAttempt(run, index, call, result));
}

function afterAttempt(run: PlanRun, index: number, call: StepCall, result: CallResult): MaybePromise<StepOutcome> {
  const { attempt } = call;
  const outcome = stepOutcomeOf(run, index, call, result);
  if (outcome.status !== "retry") return outcome;
  if (attempt >= run.config.retry.maxAttempts) return { status: "failed", error: outcome.error };
  const delayMs = backoffDelay(run.config.retry, attempt);
  const stepId = run.steps[index]!.id;
  run.events.emit({ type: "step-retry", stepId, attempt, delayMs, error: outcome.error }, { stepId });
  // A later attempt is decided afresh: an approval given for this one still holds.
  return sleep(delayMs, { clock: run.config.clock, signal: run.signal }).then(
    () => attemptUntilDone(run, index, call),
    (): StepOutcome => ({ status: "cancelled", error: "the run stopped while the step waited to retry" }),
  );
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
      return { status: "failed", error: result.outcome.error!.message };
    case "pending": {
      const { paused } = call;
      const pending: PlanPendingCall = paused ?? {
        stepId: run.steps[index]!.id,
        callId: call.call.id,
        name: call.call.name,
        arguments: call.call.arguments,
        kind: result.reason,
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
