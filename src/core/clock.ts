/**
 * Time as planloop sees it. Inject a `FakeClock` (from `planloop/testing`) to drive
 * deadlines, timeouts and retries in tests without real waiting.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on the given clock; rejects with the signal's reason on abort. */
export function sleep(ms: number, options: { clock?: Clock; signal?: AbortSignal } = {}): Promise<void> {
  const clock = options.clock ?? systemClock;
  const signal = options.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
