import { raceAbort } from "../abort.js";
import { isPromiseLike, type MaybePromise } from "../maybe-async.js";
import type { Clock } from "../clock.js";
import { errorMessage } from "../errors.js";
import type { ToolCall, ToolError } from "../messages.js";
import type { ToolSpec } from "../model.js";
import type { Tool } from "./define-tool.js";
import { limitOutput } from "./tool-output.js";

/** The verdict on a call before anything runs. */
export type Admission =
  | { kind: "run"; tool: CallTarget; args: unknown; timeoutMs?: number | undefined }
  | { kind: "reject"; error: ToolError }
  | { kind: "pending"; reason: "approval" | "input"; question?: string };

export type AdmittedCall = Extract<Admission, { kind: "run" }>;

/** What runs an admitted call: the tool itself, called as `tool.execute(args, context)`. */
export type CallTarget = Pick<Tool, "execute">;

export interface AdmitContext {
  step: number;
  signal: AbortSignal;
  /** How many calls of this tool already ran in this run. */
  callsSoFar: number;
  /** A human approved this call already: skip the approval check. */
  approved: boolean;
  /** True when `parsedArgs` holds the arguments already parsed by this tool's schema (a plan's checked step): not parsed again. */
  argsParsed?: boolean;
  parsedArgs?: unknown;
}

/** What the loop calls tools through: guarded `defineTool` tools or a seed-style executor. */
export interface ToolRunner {
  readonly specs: readonly ToolSpec[];
  /** Synchronous when every check is; a promise when an authorization or approval rule is async. */
  admit(call: ToolCall, context: AdmitContext): MaybePromise<Admission>;
}

/** The result of one call as the model will read it: content, plus the error if it failed. */
export interface ToolOutcome {
  content: unknown;
  error?: ToolError;
}

export function toolFailure(kind: ToolError["kind"], message: string): ToolOutcome {
  return { content: `Error: ${message}`, error: { kind, message } };
}

export type RunOptions = { signal: AbortSignal; step: number; clock: Clock; maxOutputChars: number };

/**
 * Runs an admitted call under the run's signal and the tool's timeout, and turns every way
 * it can end into an outcome. Never throws; returns as soon as the signal aborts, even if
 * the tool ignores its signal. A tool without a timeout that answers synchronously gets a
 * synchronous outcome: no promise is made (thousands of plan steps add up).
 */
export function runAdmittedCall(
  call: Pick<ToolCall, "id" | "name">,
  admission: AdmittedCall,
  options: RunOptions,
): MaybePromise<ToolOutcome> {
  const { id: callId, name } = call;
  const { tool, args, timeoutMs } = admission;
  // A cancelled run starts no tool.
  if (options.signal.aborted) return outcomeOfError(name, undefined, { aborted: true, timedOut: false });
  if (timeoutMs !== undefined) return runWithTimeout(call, admission, timeoutMs, options);
  let returned: unknown;
  try {
    returned = tool.execute!(args, { signal: options.signal, callId, step: options.step });
  } catch (error) {
    return outcomeOfError(name, error, { aborted: options.signal.aborted, timedOut: false });
  }
  if (!isPromiseLike(returned)) return { content: limitOutput(returned, options.maxOutputChars) };
  return raceAbort(returned, options.signal).then(
    (output) => ({ content: limitOutput(output, options.maxOutputChars) }),
    (error: unknown) => outcomeOfError(name, error, { aborted: options.signal.aborted, timedOut: false }),
  );
}

async function runWithTimeout(
  call: Pick<ToolCall, "id" | "name">,
  admission: AdmittedCall,
  timeoutMs: number,
  options: RunOptions,
): Promise<ToolOutcome> {
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
    const returned = tool.execute!(args, { signal: controller.signal, callId, step: options.step });
    const output = isPromiseLike(returned) ? await raceAbort(returned, controller.signal) : returned;
    return { content: limitOutput(output, options.maxOutputChars) };
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
