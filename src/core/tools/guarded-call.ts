import { childSignal, raceAbort } from "../abort.js";
import type { Budget } from "../budget.js";
import { errorMessage } from "../errors.js";
import { jsonSafe, maxNesting, nestedTooDeep } from "../json-safe.js";
import { andThen, isPromiseLike, type MaybePromise } from "../maybe-async.js";
import type { ToolCall } from "../messages.js";
import { ownValue } from "../records.js";
import type { Tool, ToolContext } from "./define-tool.js";
import { admitsParsedCalls } from "./tool-guard.js";
import { limitOutput } from "./tool-output.js";
import { isGated, passGates, type PassedGates } from "./call-gates.js";
import {
  toolFailure,
  type Admission,
  type AdmittedCall,
  type PendingKind,
  type RunOptions,
  type ToolOutcome,
  type ToolRunner,
} from "./tool-runner.js";

/*
 * Every tool call, in two halves: `admitCall` decides it (policy), `runAdmittedCall` runs what
 * was admitted (the one plain async call). The ReAct loop decides a round's calls in order
 * and runs the admitted ones together; a worker runs one; a plan step makes the same call in
 * continuation style (executor/step/tool-step.ts), held to these by a property test.
 */

/** A human's answer to a call that needed approval. */
export type ApprovalDecision = { approved: true } | { approved: false; reason?: string };

/** A human's decisions on the calls a paused run waits for, given when it is resumed. */
export interface HumanDecisions {
  /** Decisions on pending approvals, by the pending call's id (see `pending`). */
  approvals?: Record<string, ApprovalDecision> | undefined;
  /** Answers to pending questions (`askUser`), by the pending call's id. */
  answers?: Record<string, string> | undefined;
  /** Who gave these decisions (a person, a token's name): kept with each in the journal, beside when. */
  decidedBy?: string | undefined;
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
}

export interface GuardedCallOptions {
  scope: CallScope;
  /** `id` is what the tool sees as `callId`; `name` is what messages quote. */
  call: ToolCall & { idempotencyKey?: string | undefined };
  /** The model turn (0 for a plan's tool step). */
  step: number;
  /**
   * The tool whose schema already parsed the arguments into `parsedArgs` (a checked plan
   * step): the guard does not parse them again, and a tool with nothing else to check is
   * called at once.
   */
  parsedTool?: Tool | undefined;
  parsedArgs?: unknown;
  /** The run paused on this call before: the human's decision, under `key`, decides it (unless its request lapsed at `expiresAt`). */
  waiting?: { kind: PendingKind; key: string; expiresAt?: number | undefined } | undefined;
  /** A human approved this call for an earlier attempt, and its tool may be called again (idempotent). */
  approved?: boolean | undefined;
}

/**
 * How a call ends, before or after running. `ran`: the tool's outcome itself (its `content`,
 * and `error` if it failed: one object per call, not a wrapper around one); `refused`:
 * nothing ran (the guard, a human, or the budget said no; `outcome.error` says why);
 * `answered`: a human's answer stands in for the call; `pending`: a human must decide first.
 */
export type CallResult =
  | RanCall
  | { kind: "refused"; outcome: ToolOutcome }
  | { kind: "answered"; outcome: ToolOutcome }
  | { kind: "pending"; reason: PendingKind; question?: string; expiresInMs?: number };

export type RanCall = { kind: "ran" } & ToolOutcome;

/** The verdict before anything runs: a call to make (kind "run"), or how it ended without running. */
export type CallVerdict = Exclude<CallResult, { kind: "ran" }> | AdmittedCall;

/**
 * The policy half of every tool call (seed 001 §2): a human's decision on a paused call, the
 * guard (name, arguments, call limit, authorization, approval), then the run's tool-call
 * budget. When the call may run, it is counted and charged, and `runAdmittedCall`
 * runs it. A loop that runs a round's calls together decides them one
 * by one in call order, then runs the admitted ones; a plan step does the same in
 * continuation style (executor/step/tool-step.ts). Never throws: every refusal is an outcome.
 * Synchronous when every check is.
 */
export function admitCall(options: GuardedCallOptions): MaybePromise<CallVerdict> {
  const { call, scope, parsedTool, waiting } = options;
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
    const human = humanVerdict(scope, waiting, call.name);
    if (human !== "approved") return human;
    approved = true;
  }
  // Nothing for the guard to check: the plan check parsed the arguments and the tool has no
  // rule past them. Keep this in step with `admitsParsedCalls` and the guard's `admit`.
  if (parsedTool !== undefined && !approved && admitsParsedCalls(parsedTool)) {
    return chargeCall(scope, call.name, { kind: "run", tool: parsedTool, args: options.parsedArgs, timeoutMs: parsedTool.timeoutMs });
  }
  let admission: MaybePromise<Admission>;
  try {
    admission = scope.guard.admit(call, {
      step: options.step,
      signal: scope.execution.signal,
      callsSoFar: ownValue(scope.callCounts, call.name) ?? 0,
      approved,
      ...(parsedTool === undefined ? {} : { argsParsed: true, parsedArgs: options.parsedArgs }),
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

function humanVerdict(scope: CallScope, waiting: NonNullable<GuardedCallOptions["waiting"]>, name: string): CallVerdict | "approved" {
  const { humans } = scope;
  if (waiting.kind !== "approval") {
    const answer = ownValue(humans.answers, waiting.key);
    if (typeof answer === "string") {
      useDecision(humans, waiting.key);
      return { kind: "answered", outcome: { content: answer } };
    }
    if (waiting.kind === "input") return { kind: "pending", reason: "input" };
  }
  const decision = ownValue(humans.approvals, waiting.key);
  if (waiting.kind === "interrupted") {
    if (decision === undefined) return { kind: "pending", reason: "interrupted" };
    useDecision(humans, waiting.key);
    if (decision.approved) return "approved";
    const because = decision.reason ? `: ${decision.reason}` : "";
    return refused(toolFailure("denied", `the call to "${name}" was cut short when the process stopped, and was marked failed${because}`));
  }
  if (waiting.expiresAt !== undefined && scope.execution.clock.now() > waiting.expiresAt) {
    // A decision given late is taken by the denial: it cannot release the call later.
    if (decision !== undefined) useDecision(humans, waiting.key);
    const lapsed = new Date(waiting.expiresAt).toISOString();
    return refused(
      toolFailure("denied", `the request to approve "${name}" lapsed at ${lapsed}, before it was approved; ask for the call again`),
    );
  }
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
    const pending: CallVerdict = { kind: "pending", reason: admission.reason };
    if (admission.question !== undefined) pending.question = admission.question;
    if (admission.expiresInMs !== undefined) pending.expiresInMs = admission.expiresInMs;
    return pending;
  }
  return chargeCall(scope, name, admission);
}

/** An admitted call within the run's tool-call budget is counted and paid for. */
function chargeCall(scope: CallScope, name: string, admission: AdmittedCall): CallVerdict {
  if (scope.budget.remainingToolCalls() < 1) {
    return refused(toolFailure("budget_exhausted", `the run's tool-call budget is used up; "${name}" was not called`));
  }
  scope.callCounts[name] = (ownValue(scope.callCounts, name) ?? 0) + 1;
  scope.budget.charge(oneToolCall);
  return admission;
}

const oneToolCall = { toolCalls: 1 } as const;

function checkFailed(name: string, error: unknown): CallVerdict {
  return refused(toolFailure("execution_failed", `checking the call to "${name}" failed: ${errorMessage(error)}`));
}

function refused(outcome: ToolOutcome): CallVerdict {
  return { kind: "refused", outcome };
}

/** The signal, clock and output limit a call runs under, for its model turn. */
export function callExecution(options: GuardedCallOptions): RunOptions {
  const { execution } = options.scope;
  return options.step === execution.step ? execution : { ...execution, step: options.step };
}

/** What the tool is told of the call it serves. */
export type CallIdentity = Pick<ToolCall, "id" | "name"> & { idempotencyKey?: string | undefined };

/**
 * Runs a call `admitCall` let through, under the run's signal and the tool's timeout, and
 * turns every way it can end into an outcome: the output cut to the limit, or the failure the
 * model reads. Never rejects; settles as soon as the signal aborts, even if the tool ignores
 * it. The ReAct loop and the workers call tools with this.
 */
export async function runAdmittedCall(call: CallIdentity, admission: AdmittedCall, options: RunOptions): Promise<ToolOutcome> {
  if (options.signal.aborted) return stoppedBefore(call.name);
  if (!isGated(admission.tool)) return runUngated(call, admission, options);
  let gates: PassedGates;
  try {
    gates = await passGates(admission.tool, admission.args, options.signal);
  } catch (error) {
    if (options.signal.aborted) return stoppedBefore(call.name);
    return outcomeOfError(call.name, error, { aborted: false, timedOut: false });
  }
  // The store may grant the key or book the turn after the run was cancelled: let it go unused.
  if (options.signal.aborted) {
    gates.release();
    return stoppedBefore(call.name);
  }
  try {
    const outcome = await runUngated(call, admission, { ...options, signal: gates.signal });
    // Aborted by its gates, not by the run: a write key's hold was lost while the call ran.
    if (gates.signal.aborted && !options.signal.aborted)
      return outcomeOfError(call.name, gates.signal.reason, { aborted: false, timedOut: false });
    return outcome;
  } finally {
    gates.release();
  }
}

/** `runAdmittedCall` once the call passed its tool's gates. */
async function runUngated(call: CallIdentity, admission: AdmittedCall, options: RunOptions): Promise<ToolOutcome> {
  if (admission.timeoutMs !== undefined) return runWithTimeout(call, admission, admission.timeoutMs, options);
  // Each call its own signal: what the tool hangs on it is gone with the call.
  const own = new OwnSignal(options.signal, call.id, options.step, call.idempotencyKey);
  try {
    const returned = callTool(call, admission, own, options.step);
    return outputOutcome(isPromiseLike(returned) ? await raceAbort(returned, options.signal) : returned, options);
  } catch (error) {
    return outcomeOfError(call.name, error, { aborted: options.signal.aborted, timedOut: false });
  } finally {
    own.release();
  }
}

/**
 * What a call's tool gets besides its arguments, with a signal of its own (`childSignal`):
 * whatever the tool hangs on it (an HTTP client's listener per request) goes with the call,
 * and many calls at once put no listeners on the run's signal. The signal is made only if the
 * tool reads it: a tool that returns at once without looking costs nothing. `release` once
 * the call is done.
 */
export class OwnSignal implements ToolContext {
  private own: ReturnType<typeof childSignal> | undefined = undefined;

  constructor(
    private readonly parent: AbortSignal,
    readonly callId: string | number,
    readonly step: number,
    readonly idempotencyKey: string | undefined,
  ) {}

  // On the prototype, read on demand: an own property made per call (defineProperty) costs
  // about 4 µs a step. A tool that passes its context on passes it whole (see ToolContext).
  get signal(): AbortSignal {
    return (this.own ??= childSignal(this.parent)).signal;
  }

  release(): void {
    this.own?.release();
  }
}

/** The tool itself, told which call it serves: with the run's signal, or a context of the call's own. */
export function callTool(call: CallIdentity, admission: AdmittedCall, signal: AbortSignal | OwnSignal, step: number): unknown {
  if (signal instanceof OwnSignal) return admission.tool.execute!(admission.args, signal);
  return admission.tool.execute!(admission.args, { signal, callId: call.id, step, idempotencyKey: call.idempotencyKey });
}

/**
 * A call with a timeout: the tool gets a signal of its own that aborts when the run's does or
 * when the time is up. Timers come from the run's clock.
 */
async function runWithTimeout(call: CallIdentity, admission: AdmittedCall, timeoutMs: number, options: RunOptions): Promise<ToolOutcome> {
  const controller = childSignal(options.signal);
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const returned = callTool(call, admission, controller.signal, options.step);
    return outputOutcome(isPromiseLike(returned) ? await raceAbort(returned, controller.signal) : returned, options);
  } catch (error) {
    return outcomeOfError(call.name, error, { aborted: options.signal.aborted, timedOut, timeoutMs });
  } finally {
    options.clock.clearTimeout(timer);
    controller.release();
  }
}

/** What a tool returned, as the outcome the model or the next step reads. */
export function outputOutcome(output: unknown, options: Pick<RunOptions, "maxOutputChars">): ToolOutcome {
  return { content: outputContent(output, options) };
}

/** A tool's output as the reader gets it: made JSON-safe, cut to the limit with a marker. */
export function outputContent(output: unknown, options: Pick<RunOptions, "maxOutputChars">): unknown {
  return limitOutput(jsonSafe(output), options.maxOutputChars);
}

/** The outcome of a call the run stopped before it could start. */
export function stoppedBefore(name: string): ToolOutcome {
  return outcomeOfError(name, undefined, { aborted: true, timedOut: false });
}

/**
 * Cancelled, timed out, or failed: final when the tool said `retryable: false`; marked safe to
 * try again when it said `retryable: true` (what lets a side-effecting tool's call be retried).
 */
export function outcomeOfError(
  name: string,
  error: unknown,
  how: { aborted: boolean; timedOut: boolean; timeoutMs?: number },
): ToolOutcome {
  if (how.aborted) return toolFailure("cancelled", `the run stopped before "${name}" finished`);
  if (how.timedOut) return toolFailure("timeout", `"${name}" did not finish within ${how.timeoutMs} ms and was aborted`);
  const outcome = toolFailure("execution_failed", `"${name}" failed: ${errorMessage(error)}`);
  const retryable = (error as { retryable?: unknown } | null)?.retryable;
  if (typeof retryable === "boolean") outcome.error!.retryable = retryable;
  return outcome;
}
