/** Rejections waiting on each signal; one listener per signal serves all of them. */
const waiting = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

function waitersOf(signal: AbortSignal): Set<(reason: unknown) => void> {
  let set = waiting.get(signal);
  if (!set) {
    const created = new Set<(reason: unknown) => void>();
    set = created;
    waiting.set(signal, created);
    signal.addEventListener("abort", () => created.forEach((reject) => reject(signal.reason)), { once: true });
  }
  return set;
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as the signal aborts,
 * whichever comes first. Work that ignores its signal cannot hold the loop hostage.
 * Thousands of races on one signal share a single abort listener.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const waiters = waitersOf(signal);
  return new Promise<T>((resolve, reject) => {
    waiters.add(reject);
    Promise.resolve(promise).then(
      (value) => {
        waiters.delete(reject);
        resolve(value);
      },
      (error: unknown) => {
        waiters.delete(reject);
        reject(error);
      },
    );
  });
}

/**
 * Tells `settle` how `promise` ended, or that the signal aborted first (`ok` false, with its
 * reason): once, and without making a promise of its own. For a plan of a hundred thousand
 * calls in flight, one reaction per call is all that waits.
 */
export function whenSettled<T>(promise: PromiseLike<T>, signal: AbortSignal, settle: (ok: boolean, value: unknown) => void): void {
  if (signal.aborted) {
    settle(false, signal.reason);
    return;
  }
  const waiters = waitersOf(signal);
  let open = true;
  const onAbort = (reason: unknown) => {
    if (!open) return;
    open = false;
    settle(false, reason);
  };
  waiters.add(onAbort);
  promise.then(
    (value) => {
      if (!open) return;
      open = false;
      waiters.delete(onAbort);
      settle(true, value);
    },
    (error: unknown) => {
      if (!open) return;
      open = false;
      waiters.delete(onAbort);
      settle(false, error);
    },
  );
}
