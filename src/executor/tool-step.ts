import { sleep } from "../core/clock.js";
import { errorMessage } from "../core/errors.js";
import type { ToolCall } from "../core/messages.js";
import { andThen, isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { admitsParsedCalls } from "../core/tools/tool-guard.js";
import { callTool, type Admission, type AdmitContext, type CallTarget, type ToolOutcome } from "../core/tools/tool-runner.js";
import { substitutePlaceholders } from "../planner/placeholders.js";
import type { PlanPendingCall } from "./plan-result.js";
import { outputOf, type PlanRun, type StepOutcome } from "./plan-run.js";
import { backoffDelay, isRetryable } from "./retry.js";

/** The call id of a tool step, the key to approve it with. */
export function toolStepCallId(stepId: string | number): string {
  return `step:${stepId}`;
}

/**
 * Runs a tool step: placeholders in its args are replaced by earlier outputs, the call goes
 * through the guard, and a timeout or thrown error is retried with exponential backoff. A
 * step whose checks and tool are synchronous finishes synchronously.
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
  const tool = run.config.toolsByName.get(step.tool!);
  // Nothing for the guard to check: the call runs as it is, and no request is built.
  if (argsParsed && tool !== undefined && admitsParsedCalls(tool)) return attemptUntilDone(run, index, undefined, 1);
  const decided = paused?.kind === "tool" ? decidePaused(run, paused.pending) : notApproved;
  if ("outcome" in decided) return decided.outcome;
  const request: CallRequest = {
    id: toolStepCallId(step.id),
    name: step.tool!,
    arguments: args,
    stepId: step.id,
    step: 0,
    signal: run.signal,
    callsSoFar: 0,
    approved: decided.approved,
    argsParsed,
    parsedArgs: argsParsed ? run.config.parsedArgs[index] : undefined,
  };
  return attemptUntilDone(run, index, request, 1);
}

const notApproved = { approved: false };

/** `request` is undefined for a call the guard would admit as it is (see `admitsParsedCalls`). */
function attemptUntilDone(run: PlanRun, index: number, request: CallRequest | undefined, attempt: number): MaybePromise<StepOutcome> {
  run.records[index]!.attempts += 1;
  const attempted = request === undefined ? attemptAdmitted(run, index) : attemptCall(run, request);
  // No closure for the common case, an attempt that ended at once.
  if (!isPromiseLike(attempted)) return afterAttempt(run, index, request, attempt, attempted);
  return Promise.resolve(attempted).then((outcome) => afterAttempt(run, index, request, attempt, outcome));
}

function afterAttempt(
  run: PlanRun,
  index: number,
  request: CallRequest | undefined,
  attempt: number,
  outcome: Attempt,
): MaybePromise<StepOutcome> {
  if (outcome.status !== "retry") return outcome;
  if (attempt >= run.config.retry.maxAttempts) return { status: "failed", error: outcome.error };
  const delayMs = backoffDelay(run.config.retry, attempt);
  const stepId = run.steps[index]!.id;
  run.events.emit({ type: "step-retry", stepId, attempt, delayMs, error: outcome.error }, { stepId });
  return sleep(delayMs, { clock: run.config.clock, signal: run.signal }).then(
    () => attemptUntilDone(run, index, request, attempt + 1),
    (): StepOutcome => ({ status: "cancelled", error: "the run stopped while the step waited to retry" }),
  );
}

/** A resumed step that waited: the human's decision, or still waiting. */
function decidePaused(run: PlanRun, pending: PlanPendingCall): { approved: boolean } | { outcome: StepOutcome } {
  const key = String(pending.callId);
  if (pending.kind === "input") {
    const answer = run.config.answers[key];
    return typeof answer === "string" ? { outcome: { status: "succeeded", output: answer } } : { outcome: waitingFor(pending) };
  }
  const decision = run.config.approvals[key];
  if (decision === undefined) return { outcome: waitingFor(pending) };
  if (!decision.approved) {
    return { outcome: { status: "failed", error: `the call to "${pending.name}" was denied${decision.reason ? `: ${decision.reason}` : ""}` } };
  }
  return { approved: true };
}

function waitingFor(pending: PlanPendingCall): StepOutcome {
  return { status: "waiting", error: `waits for ${pending.kind} of "${pending.name}"`, waiting: { kind: "tool", pending } };
}

type Attempt = StepOutcome | { status: "retry"; error: string };

/**
 * One step's call, in one object that is both the call and what the guard reads about it
 * (`callsSoFar` is set before each attempt).
 */
type CallRequest = ToolCall & AdmitContext & { stepId: string | number };

/** The step's tool with the arguments the check parsed: what the guard would admit as it is. */
function attemptAdmitted(run: PlanRun, index: number): MaybePromise<Attempt> {
  const step = run.steps[index]!;
  const tool = run.config.toolsByName.get(step.tool!)!;
  return runAdmitted(run, toolStepCallId(step.id), tool.name, tool, run.config.parsedArgs[index], tool.timeoutMs);
}

function attemptCall(run: PlanRun, request: CallRequest): MaybePromise<Attempt> {
  const name = request.name;
  let admission: MaybePromise<Admission>;
  try {
    request.callsSoFar = run.toolCallCounts[name] ?? 0;
    admission = run.config.guard.admit(request, request);
  } catch (error) {
    return checkFailed(name, error);
  }
  if (!isPromiseLike(admission)) return callAdmitted(run, request, admission);
  return Promise.resolve(admission).then(
    (admitted) => callAdmitted(run, request, admitted),
    (error: unknown) => checkFailed(name, error),
  );
}

function checkFailed(name: string, error: unknown): Attempt {
  return { status: "failed", error: `checking the call to "${name}" failed: ${errorMessage(error)}` };
}

function callAdmitted(run: PlanRun, call: CallRequest, admission: Admission): MaybePromise<Attempt> {
  const { name, stepId } = call;
  if (admission.kind === "reject") return { status: "failed", error: admission.error.message };
  if (admission.kind === "pending") {
    const pending: PlanPendingCall = { stepId, callId: call.id, name, arguments: call.arguments, kind: admission.reason };
    if (admission.question !== undefined) pending.question = admission.question;
    return waitingFor(pending);
  }
  return runAdmitted(run, call.id, name, admission.tool, admission.args, admission.timeoutMs);
}

/** An admitted call, within the run's tool-call budget. */
function runAdmitted(run: PlanRun, callId: ToolCall["id"], name: string, tool: CallTarget, args: unknown, timeoutMs: number | undefined): MaybePromise<Attempt> {
  if (run.budget.remainingToolCalls() < 1) return { status: "failed", error: `the run's tool-call budget is used up; "${name}" was not called` };
  run.toolCallCounts[name] = (run.toolCallCounts[name] ?? 0) + 1;
  run.budget.charge(oneToolCall);
  return andThen(callTool(callId, name, tool, args, timeoutMs, run.toolCallOptions), attemptOf);
}

const oneToolCall = { toolCalls: 1 } as const;

function attemptOf(settled: ToolOutcome): Attempt {
  if (!settled.error) return { status: "succeeded", output: settled.content };
  if (settled.error.kind === "cancelled") return { status: "cancelled", error: settled.error.message };
  return isRetryable(settled.error) ? { status: "retry", error: settled.error.message } : { status: "failed", error: settled.error.message };
}
