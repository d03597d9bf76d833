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

/** `base` moved by `offsetMs` (another machine's time: the store's); its timers are `base`'s. */
export function offsetClock(base: Clock, offsetMs: number): Clock {
  return {
    now: () => base.now() + offsetMs,
    setTimeout: (callback, ms) => base.setTimeout(callback, ms),
    clearTimeout: (handle) => base.clearTimeout(handle),
  };
}

/**
 * The wall-clock time a journal entry is written at (ms since 1970, to a fraction of a
 * microsecond): entries written one after another in a process, with any work between them,
 * do not share a time even within one millisecond, so a stored run's trace orders a step's end
 * in one run and the pause written after it in another rightly.
 */
export function journalTime(): number {
  return performance.timeOrigin + performance.now();
}

/** The longest delay a timer takes (2^31 - 1 ms, 24.8 days). */
const maxTimerMs = 2 ** 31 - 1;

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
    // A timer takes at most 2^31 - 1 ms (a longer one fires after 1 ms): a longer wait goes on in steps.
    const end = clock.now() + ms;
    const step = (left: number): unknown =>
      clock.setTimeout(
        () => {
          const rest = end - clock.now();
          if (left > maxTimerMs && rest > 0) handle = step(rest);
          else {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          }
        },
        Math.min(left, maxTimerMs),
      );
    let handle = step(ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
