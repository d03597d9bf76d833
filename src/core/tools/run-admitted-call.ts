import { raceAbort } from "../abort.js";
import { errorMessage } from "../errors.js";
import { jsonSafe } from "../json-safe.js";
import { isPromiseLike } from "../maybe-async.js";
import type { ToolCall } from "../messages.js";
import { limitOutput } from "./tool-output.js";
import { toolFailure, type AdmittedCall, type RunOptions, type ToolOutcome } from "./tool-runner.js";

/** What the tool is told of the call it serves. */
export type CallIdentity = Pick<ToolCall, "id" | "name"> & { idempotencyKey?: string | undefined };

/**
 * Runs a call `admitCall` let through, under the run's signal and the tool's timeout, and
 * turns every way it can end into an outcome: the output cut to the limit, or the failure the
 * model reads. Never rejects; settles as soon as the signal aborts, even if the tool ignores
 * it. The ReAct loop and the workers call tools with this; a plan step runs the same call in
 * continuation style (executor/step/step-call.ts), held to this one by a property test.
 */
export async function runAdmittedCall(call: CallIdentity, admission: AdmittedCall, options: RunOptions): Promise<ToolOutcome> {
  if (options.signal.aborted) return stoppedBefore(call.name);
  if (admission.timeoutMs !== undefined) return runWithTimeout(call, admission, admission.timeoutMs, options);
  try {
    const returned = callTool(call, admission, options.signal, options.step);
    return outputOutcome(isPromiseLike(returned) ? await raceAbort(returned, options.signal) : returned, options);
  } catch (error) {
    return outcomeOfError(call.name, error, { aborted: options.signal.aborted, timedOut: false });
  }
}

/** The tool itself, told which call it serves. */
export function callTool(call: CallIdentity, admission: AdmittedCall, signal: AbortSignal, step: number): unknown {
  return admission.tool.execute!(admission.args, { signal, callId: call.id, step, idempotencyKey: call.idempotencyKey });
}

/**
 * A call with a timeout: the tool gets a signal of its own that aborts when the run's does or
 * when the time is up. Timers come from the run's clock.
 */
async function runWithTimeout(call: CallIdentity, admission: AdmittedCall, timeoutMs: number, options: RunOptions): Promise<ToolOutcome> {
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(options.signal.reason);
  options.signal.addEventListener("abort", onRunAbort, { once: true });
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
    options.signal.removeEventListener("abort", onRunAbort);
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

/** Cancelled, timed out, or failed (final when the tool said `retryable: false`). */
export function outcomeOfError(
  name: string,
  error: unknown,
  how: { aborted: boolean; timedOut: boolean; timeoutMs?: number },
): ToolOutcome {
  if (how.aborted) return toolFailure("cancelled", `the run stopped before "${name}" finished`);
  if (how.timedOut) return toolFailure("timeout", `"${name}" did not finish within ${how.timeoutMs} ms and was aborted`);
  const outcome = toolFailure("execution_failed", `"${name}" failed: ${errorMessage(error)}`);
  if ((error as { retryable?: unknown } | null)?.retryable === false) outcome.error!.retryable = false;
  return outcome;
}
