import type { Clock } from "./clock.js";
import { shown } from "./errors.js";

/** Why a run's signal aborted: the caller cancelled, or the deadline passed. */
export type AbortCause = "cancelled" | "deadline";

export interface RunSignal {
  signal: AbortSignal;
  cause(): AbortCause | undefined;
  dispose(): void;
}

/**
 * One signal for everything a run starts: it aborts when the caller's signal does or when
 * the deadline (`remainingMs` from now, on the given clock) passes, and remembers which.
 */
export function createRunSignal(options: { signal: AbortSignal | undefined; clock: Clock; remainingMs: number | undefined }): RunSignal {
  const controller = new AbortController();
  let cause: AbortCause | undefined;
  const abort = (why: AbortCause, reason: unknown) => {
    cause ??= why;
    controller.abort(reason);
  };
  const onCancel = () => abort("cancelled", options.signal?.reason);
  if (options.signal?.aborted) onCancel();
  options.signal?.addEventListener("abort", onCancel, { once: true });
  const timer =
    options.remainingMs === undefined
      ? undefined
      : options.clock.setTimeout(() => abort("deadline", new Error("deadline exceeded")), Math.max(0, options.remainingMs));
  return {
    signal: controller.signal,
    cause: () => cause,
    dispose: () => {
      options.signal?.removeEventListener("abort", onCancel);
      if (timer !== undefined) options.clock.clearTimeout(timer);
    },
  };
}

/** Human-readable reason for a cancellation, from the caller's abort reason. */
export function cancelReason(signal: AbortSignal | undefined): string {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "cancelled" : `cancelled: ${shown(reason)}`;
}
