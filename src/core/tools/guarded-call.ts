import { raceAbort, SettleWaiter, whenSettled } from "../abort.js";
import type { Budget } from "../budget.js";
import { errorMessage } from "../errors.js";
import { jsonSafe, maxNesting, nestedTooDeep } from "../json-safe.js";
import { andThen, isPromiseLike, settledLater, type MaybePromise } from "../maybe-async.js";
import type { ToolCall } from "../messages.js";
import type { Tool } from "./define-tool.js";
import { admitsParsedCalls } from "./tool-guard.js";
import { limitOutput } from "./tool-output.js";
import { toolFailure, type Admission, type AdmittedCall, type RunOptions, type ToolOutcome, type ToolRunner } from "./tool-runner.js";
import { ownValue } from "../records.js";

/** A human's answer to a call that needed approval. */
export type ApprovalDecision = { approved: true } | { approved: false; reason?: string };

/** A human's decisions on the calls a paused run waits for, given when it is resumed. */
export interface HumanDecisions {
  /** Decisions on pending approvals, by the pending call's id (see `pending`). */
  approvals?: Record<string, ApprovalDecision> | undefined;
  /** Answers to pending questions (`askUser`), by the pending call's id. */
  answers?: Record<string, string> | undefined;
}

/**
 * What the humans said about the calls a run paused on, by the id each call was shown with.
 * A decision is used once: when a call takes it, it leaves these records for `used`.
 */
export interface HumanAnswers {
  approvals: Record<string, ApprovalDecision>;
  answers: Record<string, string>;
  /** The ids of the decisions used so far, in the order they were used. */
  used: string[];
}

/** What stays the same for every call of one run (or one loop). */
export interface CallScope {
  guard: ToolRunner;
  budget: Budget;
  /** Calls made so far, by tool name; a call that runs adds one. */
  callCounts: Record<string, number>;
  humans: HumanAnswers;
  /** The signal, clock and output limit every call of the run gets. */
  execution: RunOptions;
  /** Runs admitted calls somewhere else (a worker process) instead of here; see `RemoteCall`. */
  remote?: RemoteCall | undefined;
}

/**
 * Runs an admitted call in another process: what it resolves to is the call's outcome. The
 * call was decided here (approvals, rules, limits, budget); the other side runs the tool with
 * the same arguments, key, timeout and output limit, and gets `options.signal`'s abort.
 */
export type RemoteCall = (
  call: ToolCall & { idempotencyKey?: string | undefined },
  admission: Extract<Admission, { kind: "run" }>,
  options: RunOptions,
) => Promise<ToolOutcome>;

export interface GuardedCallOptions {
  scope: CallScope;
  /** `id` is what the tool sees as `callId`; `name` is what messages quote. */
  call: ToolCall & { idempotencyKey?: string | undefined };
  /** The model turn (0 for a plan's tool step). */
  step: number;
  /**
   * The arguments were already parsed by the tool's schema (a checked plan step): the guard
   * does not parse them again, and a tool with nothing else to check is called at once.
   */
  parsed?: { tool: Tool; args: unknown } | undefined;
  /** The run paused on this call before: the human's decision, under `key`, decides it. */
  waiting?: { kind: "approval" | "input"; key: string } | undefined;
  /** A human approved this call for an earlier attempt, and its tool may be called again (idempotent). */
  approved?: boolean | undefined;
}

/**
 * How a call ends, before or after running. `refused`: nothing ran (the guard, a human, or
 * the budget said no; `outcome.error` says why); `answered`: a human's answer stands in for
 * the call; `pending`: a human must decide first.
 */
export type CallResult =
  | { kind: "ran"; outcome: ToolOutcome }
  | { kind: "refused"; outcome: ToolOutcome }
  | { kind: "answered"; outcome: ToolOutcome }
  | { kind: "pending"; reason: "approval" | "input"; question?: string };

/** The verdict before anything runs: a call to make, or how it ended without running. */
export type CallVerdict = Exclude<CallResult, { kind: "ran" }> | Admitted;
export type Admitted = { kind: "admitted"; admission: Extract<Admission, { kind: "run" }> };

/**
 * Where a call made in continuation style reports how it ended, once. An object rather than
 * a callback, so the one object that already describes a call in flight (a plan step's call)
 * can hear of its end: no closure per call.
 */
export interface CallSink {
  callEnded(result: CallResult): void;
}

/**
 * The one way a tool is called (seed 001 §2): a human's decision on a paused call, the
 * guard (name, arguments, call limit, authorization, approval), the run's tool-call budget,
 * then the call under the run's signal and the tool's timeout, its output cut to the limit.
 * Every toolFailure is an outcome the caller shows to the model or records on the step; it
 * never throws. Synchronous when every check and the tool are.
 */
export function guardedCall(options: GuardedCallOptions): MaybePromise<CallResult> {
  return settledLater((settle) => guardedCallWith(options, { callEnded: settle }));
}

/**
 * `guardedCall` in continuation style: the result when the call ended at once; else
 * undefined, and `sink.callEnded(result)` once it ends. A plan step's call waits on one
 * reaction (no promise of its own per call in flight). `callEnded` must not throw.
 */
export function guardedCallWith(options: GuardedCallOptions, sink: CallSink): CallResult | undefined {
  const verdict = admitCall(options);
  if (!isPromiseLike(verdict)) return runVerdictWith(options, verdict, sink);
  void Promise.resolve(verdict).then((decided) => {
    const now = runVerdictWith(options, decided, sink);
    if (now !== undefined) sink.callEnded(now);
  });
  return undefined;
}

function runVerdictWith(options: GuardedCallOptions, verdict: CallVerdict, sink: CallSink): CallResult | undefined {
  if (verdict.kind !== "admitted") return verdict;
  const { call, scope } = options;
  if (scope.remote) {
    const ran = runAdmitted(options, verdict);
    if (!isPromiseLike(ran)) return ranOutcome(ran);
    void Promise.resolve(ran).then((outcome) => sink.callEnded(ranOutcome(outcome)));
    return undefined;
  }
  const execution = options.step === scope.execution.step ? scope.execution : { ...scope.execution, step: options.step };
  return runAdmittedCallWith(call, verdict.admission, execution, sink);
}

/** The second half of `guardedCall`: the admitted call under the signal and the tool's timeout. */
export function runAdmitted(options: GuardedCallOptions, verdict: Admitted): MaybePromise<ToolOutcome> {
  const { admission } = verdict;
  const { call, scope } = options;
  const execution = options.step === scope.execution.step ? scope.execution : { ...scope.execution, step: options.step };
  return scope.remote ? scope.remote(call, admission, execution) : runAdmittedCall(call, admission, execution);
}

/**
 * The first half of `guardedCall`: decides a call and, when it may run, counts it and
 * charges the budget. A loop that runs a round's calls together decides them one by one in
 * call order with this, then runs the admitted ones with `runAdmitted`.
 */
export function admitCall(options: GuardedCallOptions): MaybePromise<CallVerdict> {
  const { call, scope, parsed, waiting } = options;
  if (call.invalidArguments !== undefined) {
    const raw = call.invalidArguments.length > 200 ? `${call.invalidArguments.slice(0, 200)}…` : call.invalidArguments;
    return refused(
      toolFailure(
        "invalid_arguments",
        `the arguments for "${call.name}" are not valid JSON (${raw}); send the call again with a JSON object`,
      ),
    );
  }
  if (call.arguments === nestedTooDeep) {
    return refused(
      toolFailure(
        "invalid_arguments",
        `the arguments for "${call.name}" nest deeper than ${maxNesting} levels; send them with less nesting`,
      ),
    );
  }
  let approved = options.approved === true;
  if (waiting !== undefined && !approved) {
    const human = humanVerdict(scope.humans, waiting, call.name);
    if (human !== "approved") return human;
    approved = true;
  }
  // Nothing for the guard to check: the plan check parsed the arguments and the tool has no
  // rule past them. Keep this in step with `admitsParsedCalls` and the guard's `admit`.
  if (parsed !== undefined && !approved && admitsParsedCalls(parsed.tool)) {
    return chargeCall(scope, call.name, { kind: "run", tool: parsed.tool, args: parsed.args, timeoutMs: parsed.tool.timeoutMs });
  }
  let admission: MaybePromise<Admission>;
  try {
    admission = scope.guard.admit(call, {
      step: options.step,
      signal: scope.execution.signal,
      callsSoFar: ownValue(scope.callCounts, call.name) ?? 0,
      approved,
      ...(parsed === undefined ? {} : { argsParsed: true, parsedArgs: parsed.args }),
    });
  } catch (error) {
    return checkFailed(call.name, error);
  }
  const signal = scope.execution.signal;
  // An authorization or approval rule that never answers cannot outlive the run.
  if (isPromiseLike(admission)) admission = raceAbort(admission, signal);
  return andThen(
    admission,
    (admitted) => settleAdmission(scope, call.name, admitted),
    (error: unknown) =>
      signal.aborted
        ? refused(toolFailure("cancelled", `the run stopped while the call to "${call.name}" was checked`))
        : checkFailed(call.name, error),
  );
}

function humanVerdict(humans: HumanAnswers, waiting: { kind: "approval" | "input"; key: string }, name: string): CallVerdict | "approved" {
  if (waiting.kind === "input") {
    const answer = ownValue(humans.answers, waiting.key);
    if (typeof answer !== "string") return { kind: "pending", reason: "input" };
    useDecision(humans, waiting.key);
    return { kind: "answered", outcome: { content: answer } };
  }
  const decision = ownValue(humans.approvals, waiting.key);
  if (decision === undefined) return { kind: "pending", reason: "approval" };
  useDecision(humans, waiting.key);
  if (decision.approved) return "approved";
  const because = decision.reason ? `: ${decision.reason}` : "";
  return refused(toolFailure("denied", `the call to "${name}" was denied${because}`));
}

/** A decision is taken by the call it names, once: a retry or a second resume needs a new one. */
function useDecision(humans: HumanAnswers, key: string): void {
  delete humans.approvals[key];
  delete humans.answers[key];
  humans.used.push(key);
}

function settleAdmission(scope: CallScope, name: string, admission: Admission): CallVerdict {
  if (admission.kind === "reject") return refused({ content: `Error: ${admission.error.message}`, error: admission.error });
  if (admission.kind === "pending") {
    return admission.question === undefined
      ? { kind: "pending", reason: admission.reason }
      : { kind: "pending", reason: admission.reason, question: admission.question };
  }
  return chargeCall(scope, name, admission);
}

/** An admitted call within the run's tool-call budget is counted and paid for. */
function chargeCall(scope: CallScope, name: string, admission: Extract<Admission, { kind: "run" }>): CallVerdict {
  if (scope.budget.remainingToolCalls() < 1) {
    return refused(toolFailure("budget_exhausted", `the run's tool-call budget is used up; "${name}" was not called`));
  }
  scope.callCounts[name] = (ownValue(scope.callCounts, name) ?? 0) + 1;
  scope.budget.charge(oneToolCall);
  return { kind: "admitted", admission };
}

const oneToolCall = { toolCalls: 1 } as const;

function checkFailed(name: string, error: unknown): CallVerdict {
  return refused(toolFailure("execution_failed", `checking the call to "${name}" failed: ${errorMessage(error)}`));
}

function refused(outcome: ToolOutcome): CallVerdict {
  return { kind: "refused", outcome };
}

function ranOutcome(outcome: ToolOutcome): Ran {
  return { kind: "ran", outcome };
}

/** What the tool is told of the call it serves. */
type CallIdentity = Pick<ToolCall, "id" | "name"> & { idempotencyKey?: string | undefined };

/**
 * Runs an admitted call under the run's signal and the tool's timeout, and turns every way
 * it can end into an outcome. Never throws; returns as soon as the signal aborts, even if
 * the tool ignores its signal. A tool without a timeout that answers synchronously gets a
 * synchronous outcome: no promise is made (thousands of plan steps add up).
 */
export function runAdmittedCall(call: CallIdentity, admission: AdmittedCall, options: RunOptions): MaybePromise<ToolOutcome> {
  return andThen(
    settledLater<CallResult>((settle) => runAdmittedCallWith(call, admission, options, { callEnded: settle })),
    outcomeOfRun,
  );
}

function outcomeOfRun(result: CallResult): ToolOutcome {
  return (result as Ran).outcome;
}

type Ran = Extract<CallResult, { kind: "ran" }>;

/** `runAdmittedCall` in continuation style (see `guardedCallWith`), its outcome as a call's result. */
function runAdmittedCallWith(call: CallIdentity, admission: AdmittedCall, options: RunOptions, sink: CallSink): Ran | undefined {
  const { id: callId, name } = call;
  const { tool, args, timeoutMs } = admission;
  if (options.signal.aborted) return ranOutcome(outcomeOfError(name, undefined, { aborted: true, timedOut: false }));
  if (timeoutMs !== undefined) {
    void runWithTimeout(call, admission, timeoutMs, options).then((outcome) => sink.callEnded(ranOutcome(outcome)));
    return undefined;
  }
  let returned: unknown;
  try {
    returned = tool.execute!(args, { signal: options.signal, callId, step: options.step, idempotencyKey: call.idempotencyKey });
  } catch (error) {
    return ranOutcome(outcomeOfError(name, error, { aborted: options.signal.aborted, timedOut: false }));
  }
  if (!isPromiseLike(returned)) return ranOutcome({ content: limitOutput(jsonSafe(returned), options.maxOutputChars) });
  whenSettled(returned, options.signal, new CallInFlight(name, options, sink));
  return undefined;
}

/** A tool call whose promise is out: the one object that waits for it (see `whenSettled`). */
class CallInFlight extends SettleWaiter {
  constructor(
    private readonly name: string,
    private readonly options: RunOptions,
    private readonly sink: CallSink,
  ) {
    super();
  }

  settle(ok: boolean, value: unknown): void {
    const { options } = this;
    this.sink.callEnded(
      ranOutcome(
        ok
          ? { content: limitOutput(jsonSafe(value), options.maxOutputChars) }
          : outcomeOfError(this.name, value, { aborted: options.signal.aborted, timedOut: false }),
      ),
    );
  }
}

async function runWithTimeout(call: CallIdentity, admission: AdmittedCall, timeoutMs: number, options: RunOptions): Promise<ToolOutcome> {
  const { id: callId, name } = call;
  const { tool, args } = admission;
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(options.signal.reason);
  options.signal.addEventListener("abort", onRunAbort, { once: true });
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const returned = tool.execute!(args, { signal: controller.signal, callId, step: options.step, idempotencyKey: call.idempotencyKey });
    const output = isPromiseLike(returned) ? await raceAbort(returned, controller.signal) : returned;
    return { content: limitOutput(jsonSafe(output), options.maxOutputChars) };
  } catch (error) {
    return outcomeOfError(name, error, { aborted: options.signal.aborted, timedOut, timeoutMs });
  } finally {
    options.clock.clearTimeout(timer);
    options.signal.removeEventListener("abort", onRunAbort);
  }
}

/** Cancelled, timed out, or failed (final when the tool said `retryable: false`). */
function outcomeOfError(name: string, error: unknown, how: { aborted: boolean; timedOut: boolean; timeoutMs?: number }): ToolOutcome {
  if (how.aborted) return toolFailure("cancelled", `the run stopped before "${name}" finished`);
  if (how.timedOut) return toolFailure("timeout", `"${name}" did not finish within ${how.timeoutMs} ms and was aborted`);
  const outcome = toolFailure("execution_failed", `"${name}" failed: ${errorMessage(error)}`);
  if ((error as { retryable?: unknown } | null)?.retryable === false) outcome.error!.retryable = false;
  return outcome;
}
