import { raceAbort } from "../abort.js";
import type { Clock } from "../clock.js";
import { errorMessage } from "../errors.js";
import type { ToolCall, ToolError } from "../messages.js";
import type { ToolSpec } from "../model.js";
import type { ToolContext } from "./define-tool.js";
import { limitOutput } from "./tool-output.js";

/** The verdict on a call before anything runs. */
export type Admission =
  | { kind: "run"; execute: (context: ToolContext) => unknown; timeoutMs?: number }
  | { kind: "reject"; error: ToolError }
  | { kind: "pending"; reason: "approval" | "input"; question?: string };

export interface AdmitContext {
  step: number;
  signal: AbortSignal;
  /** How many calls of this tool already ran in this run. */
  callsSoFar: number;
  /** A human approved this call already: skip the approval check. */
  approved: boolean;
  /** The arguments, already parsed by this tool's schema (a plan's checked step): not parsed again. */
  parsed?: { value: unknown };
}

/** What the loop calls tools through: guarded `defineTool` tools or a seed-style executor. */
export interface ToolRunner {
  readonly specs: readonly ToolSpec[];
  admit(call: ToolCall, context: AdmitContext): Promise<Admission>;
}

/** The result of one call as the model will read it: content, plus the error if it failed. */
export interface ToolOutcome {
  content: unknown;
  error?: ToolError;
}

export function failure(kind: ToolError["kind"], message: string): ToolOutcome {
  return { content: `Error: ${message}`, error: { kind, message } };
}

/**
 * Runs an admitted call under the run's signal and the tool's timeout, and turns every way
 * it can end into an outcome. Never throws; returns as soon as the signal aborts, even if
 * the tool ignores its signal.
 */
export async function runAdmittedCall(
  call: ToolCall,
  admission: Extract<Admission, { kind: "run" }>,
  options: { signal: AbortSignal; step: number; clock: Clock; maxOutputChars: number },
): Promise<ToolOutcome> {
  // A call without a timeout can use the run's signal as it is: no controller to allocate.
  const controller = admission.timeoutMs === undefined ? undefined : new AbortController();
  const signal = controller?.signal ?? options.signal;
  const onRunAbort = () => controller?.abort(options.signal.reason);
  if (controller) options.signal.addEventListener("abort", onRunAbort, { once: true });
  let timedOut = false;
  const timer =
    controller === undefined
      ? undefined
      : options.clock.setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`timed out after ${admission.timeoutMs} ms`));
        }, admission.timeoutMs!);
  try {
    const context = { signal, callId: call.id, step: options.step };
    const returned = admission.execute(context);
    // A tool that answered synchronously needs no race against the signal.
    const output = isThenable(returned) ? await raceAbort(returned, signal) : returned;
    return { content: limitOutput(output, options.maxOutputChars) };
  } catch (error) {
    if (options.signal.aborted) return failure("cancelled", `the run stopped before "${call.name}" finished`);
    if (timedOut) {
      return failure("timeout", `"${call.name}" did not finish within ${admission.timeoutMs} ms and was aborted`);
    }
    const outcome = failure("execution_failed", `"${call.name}" failed: ${errorMessage(error)}`);
    if ((error as { retryable?: unknown } | null)?.retryable === false) outcome.error!.retryable = false;
    return outcome;
  } finally {
    if (timer !== undefined) options.clock.clearTimeout(timer);
    if (controller) options.signal.removeEventListener("abort", onRunAbort);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
