import { sleep } from "../../core/clock.js";
import { isPromiseLike, type MaybePromise } from "../../core/maybe-async.js";
import { callDigest, interruptedQuestion, nextDecisionId, toolStepCallId } from "../../core/tools/approvals.js";
import { effectOf, type Tool } from "../../core/tools/define-tool.js";
import type { CallResult, CallScope } from "../../core/tools/guarded-call.js";
import type { ToolOutcome } from "../../core/tools/tool-runner.js";
import { substitutePlaceholders } from "../../plan/placeholders.js";
import type { PlanPendingCall } from "../execution-result.js";
import { idempotencyKeyOf, outputOf, unexpectedOutcome, type PlanRun, type StepOutcome } from "../live-run.js";
import type { RemoteCall } from "../step-runner.js";
import { startCall, type CallSink, type StepCallOptions } from "./call-in-flight.js";
import { backoffDelay, isRetryable } from "../retry.js";

/** The scheduler's callback for a step that ended later: whether it succeeded. */
export type StepDone = (index: number, ok: boolean) => void;

/** How a tool step that ends later is concluded (run-step.ts's `concludeLater`, passed in: no import loop). */
export type StepEnded = (run: PlanRun, index: number, outcome: StepOutcome, done: StepDone) => void;

/**
 * Runs a tool step: placeholders in its args are replaced by earlier outputs, the call goes
 * through the guarded call, and a timeout or thrown error is retried with exponential
 * backoff. Ended at once (a synchronous tool and checks): its outcome. Still running:
 * undefined, and `ended(run, index, outcome, done)` once it ends.
 */
export function runToolStep(run: PlanRun, index: number, ended: StepEnded, done: StepDone): StepOutcome | undefined {
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
  const call = new StepCall(run, index, ended, done);
  // The step's key is its id as text already: no number turned into text again per step.
  call.id = toolStepCallId(run.graph.keys[index]!);
  call.name = step.tool!;
  call.arguments = args;
  // Only calls that can run again after a crash carry a key: a durable run's, and those
  // sent to workers (a worker that dies hands its job to another).
  if (run.checkpoints !== undefined || run.config.runner !== undefined) call.idempotencyKey = idempotencyKeyOf(run, index);
  if (argsParsed) {
    call.parsedTool = run.config.toolsByName.get(step.tool!);
    call.parsedArgs = run.config.parsedArgs[index];
  }
  // A call cut short on a person's decision asks anew already (see `askCutShortAnew`).
  if (paused?.kind === "tool") call.paused = paused.pending;
  else if (run.interrupted.size > 0 && run.interrupted.delete(index)) call.paused = interruptedCall(call);
  return attempt(call);
}

/**
 * A step whose call was running when the process stopped: a side-effecting tool's is not run
 * again unasked; the step waits for a person to say what became of it. Others run again.
 */
function interruptedCall(call: StepCall): PlanPendingCall | undefined {
  const { run, index } = call;
  const tool = run.config.toolsByName.get(call.name);
  if (tool === undefined || effectOf(tool) !== "side-effecting") return undefined;
  return {
    id: call.id,
    stepId: run.steps[index]!.id,
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    kind: "interrupted",
    question: interruptedQuestion(call.name),
    digest: callDigest(call.name, call.arguments),
  };
}

/**
 * A tool step's call: what the guarded call needs, the call it paused on before (if it
 * did), the attempts so far, and where its end goes. It is the call itself (the tool sees
 * its `id`) and the call's sink: while the tool runs, this object is all the step holds. What
 * every step of the run shares (the scope, the remote runner) is read from the run.
 */
class StepCall implements StepCallOptions, CallSink {
  id = "";
  name = "";
  arguments: unknown = undefined;
  idempotencyKey: string | undefined = undefined;
  parsedTool: Tool | undefined = undefined;
  parsedArgs: unknown = undefined;
  /** The call the step paused on in an earlier run; the human's decision is under its id. */
  paused: PlanPendingCall | undefined = undefined;
  attempt = 0;
  /** A human approved this call for an earlier attempt (an idempotent tool's retry rides on it). */
  approved: boolean | undefined = undefined;

  constructor(
    readonly run: PlanRun,
    readonly index: number,
    readonly ended: StepEnded,
    readonly done: StepDone,
  ) {}

  get call(): StepCall {
    return this;
  }

  get scope(): CallScope {
    return this.run.callScope;
  }

  get remote(): RemoteCall | undefined {
    return this.run.remoteCall;
  }

  /** A plan's tool step is not a model turn. */
  get step(): number {
    return 0;
  }

  /** The decision this call runs under, when it is not the call's own id (approved again after it was cut short). */
  get decidedAs(): string | undefined {
    const key = this.paused?.id;
    return key === undefined || key === this.id ? undefined : key;
  }

  get waiting(): StepCallOptions["waiting"] {
    const { paused } = this;
    return paused === undefined ? undefined : { kind: paused.kind, key: paused.id, expiresAt: paused.expiresAt };
  }

  /** The call of an attempt ended later: the step goes on from it. */
  callEnded(result: CallResult): void {
    let outcome: StepOutcome | undefined;
    try {
      outcome = afterCall(this, result);
    } catch (error) {
      outcome = unexpectedOutcome(error);
    }
    if (outcome !== undefined) this.ended(this.run, this.index, outcome, this.done);
  }
}

/**
 * One attempt of a tool step, and the retries after it, in continuation style: the outcome
 * when it ended at once; else undefined, and the step reports its end itself. While it
 * runs, the step waits on one reaction, not a chain of promises (a hundred thousand steps
 * in flight add up).
 */
function attempt(call: StepCall): StepOutcome | undefined {
  call.run.records[call.index]!.attempts += 1;
  call.attempt += 1;
  const now = startCall(call, call);
  return now === undefined ? undefined : afterCall(call, now);
}

/** The step's outcome after an attempt's call; undefined when it reports its end later (a retry). */
function afterCall(call: StepCall, result: CallResult): StepOutcome | undefined {
  const next = afterAttempt(call, result);
  if (!isPromiseLike(next)) return next;
  const { run, index, ended, done } = call;
  Promise.resolve(next).then(
    (outcome) => {
      if (outcome !== undefined) ended(run, index, outcome, done);
    },
    (error: unknown) => ended(run, index, unexpectedOutcome(error), done),
  );
  return undefined;
}

function afterAttempt(call: StepCall, result: CallResult): MaybePromise<StepOutcome | undefined> {
  const { run, index, attempt: attempts } = call;
  const tool = run.config.toolsByName.get(call.call.name);
  // Cut short where nobody saw its end (a lost job, a stalled worker): a person says what became of it.
  if (result.kind === "ran" && result.error?.cutShort === true && tool !== undefined && effectOf(tool) === "side-effecting")
    return askWhatBecame(call, result.error.message);
  const outcome = stepOutcomeOf(call, result);
  if (outcome.status !== "retry") return outcome;
  if (attempts >= run.config.retry.maxAttempts) return { status: "failed", error: outcome.error };
  // One approval, one call: an approved call that failed runs again only if its tool says a
  // repeat is harmless, or after a new approval (under a new id, so an old one cannot match).
  const decided = call.waiting?.kind;
  if (decided === "approval" || decided === "interrupted") {
    if (tool === undefined || effectOf(tool) === "side-effecting") return approveAgain(call, outcome.error);
    // The approval was taken by the first attempt; the retries of an idempotent call ride on it.
    call.approved = true;
  }
  // A side-effecting call that failed may have taken effect: it is tried again only when the
  // tool said this failure is safe to retry (`retryable: true`), never after a timeout.
  if (tool !== undefined && effectOf(tool) === "side-effecting" && !(result.kind === "ran" && result.error?.retryable === true)) {
    return {
      status: "failed",
      error: `${outcome.error}; "${call.call.name}" is side-effecting, so it was not run again (the failed call may have taken effect: check it; a tool marks a failure safe to retry by throwing it with retryable: true)`,
    };
  }
  const delayMs = backoffDelay(run.config.retry, attempts);
  const stepId = run.steps[index]!.id;
  run.events.emit({ type: "step-retry", stepId, attempt: attempts, delayMs, error: outcome.error }, { stepId });
  return sleep(delayMs, { clock: run.config.clock, signal: run.signal }).then(
    () => attempt(call),
    (): StepOutcome => ({ status: "cancelled", error: "the run stopped while the step waited to retry" }),
  );
}

/** An approved call failed: the step waits for a new approval to try it once more. */
function approveAgain(call: StepCall, error: string): StepOutcome {
  const id = decisionIdAfter(call);
  const { question: _, ...shownCall } = call.paused!;
  const pending: PlanPendingCall = { ...shownCall, id, kind: "approval" };
  const reason = `the approved call to "${pending.name}" failed (${error}); it runs again only with a new approval of ${id}`;
  return { status: "waiting", error: reason, waiting: { kind: "tool", pending } };
}

/** step:2, then step:2#2, step:2#3: the number of the decision asked for on the step. */
function decisionIdAfter(call: StepCall): string {
  return nextDecisionId(toolStepCallId(call.run.graph.keys[call.index]!), call.paused?.id);
}

/**
 * A side-effecting call cut short where nobody saw its end: the step waits for a person to
 * say what became of it (`interrupted`: approve runs it again, deny fails the step, an answer
 * is taken as its output), under a new id so no earlier decision can match.
 */
function askWhatBecame(call: StepCall, error: string): StepOutcome {
  const pending: PlanPendingCall = {
    ...(call.paused ?? interruptedCall(call)!),
    id: decisionIdAfter(call),
    kind: "interrupted",
    question: interruptedQuestion(call.name),
  };
  const reason = `the call to "${pending.name}" was cut short (${error}); it may have taken effect, so it runs again only when ${pending.id} is approved`;
  return { status: "waiting", error: reason, waiting: { kind: "tool", pending } };
}

type Attempt = StepOutcome | { status: "retry"; error: string };

/** A call's result as a step's: a refusal fails the step for good, a pause makes it wait. */
function stepOutcomeOf(call: StepCall, result: CallResult): Attempt {
  const { run, index } = call;
  switch (result.kind) {
    case "ran":
      return attemptOf(result);
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
      const expiresInMs = result.expiresInMs ?? (result.reason === "approval" ? run.config.approvalExpiresInMs : undefined);
      if (paused === undefined && expiresInMs !== undefined) pending.expiresAt = run.config.clock.now() + expiresInMs;
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
