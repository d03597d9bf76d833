/**
 * Something that waits on a promise and on a signal, told once which came first: the
 * promise fulfilled (`ok`), it rejected, or the signal aborted (`ok` false, with its reason).
 * An object rather than a callback, so a call in flight can be its own waiter.
 */
export interface SettleWaiter {
  settle(ok: boolean, value: unknown): void;
}

/** Waiters on each signal; one listener per signal serves all of them. */
const waiting = new WeakMap<AbortSignal, Set<SettleWaiter>>();

function waitersOf(signal: AbortSignal): Set<SettleWaiter> {
  let set = waiting.get(signal);
  if (!set) {
    const created = new Set<SettleWaiter>();
    set = created;
    waiting.set(signal, created);
    signal.addEventListener(
      "abort",
      () => {
        // Out of the set before they hear of it: a promise that settles later finds them gone.
        const all = [...created];
        created.clear();
        for (const waiter of all) waiter.settle(false, signal.reason);
      },
      { once: true },
    );
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
  return new Promise<T>((resolve, reject) => {
    whenSettled(promise, signal, { settle: (ok, value) => (ok ? resolve(value as T) : reject(value)) });
  });
}

/**
 * Tells `waiter` how `promise` ended, or that the signal aborted first: once, and without a
 * promise of its own. For a plan of a hundred thousand calls in flight, one reaction per
 * call is all that waits, and the waiter is the call itself.
 */
export function whenSettled(promise: PromiseLike<unknown>, signal: AbortSignal, waiter: SettleWaiter): void {
  if (signal.aborted) {
    waiter.settle(false, signal.reason);
    return;
  }
  const waiters = waitersOf(signal);
  waiters.add(waiter);
  promise.then(
    (value) => {
      if (waiters.delete(waiter)) waiter.settle(true, value);
    },
    (error: unknown) => {
      if (waiters.delete(waiter)) waiter.settle(false, error);
    },
  );
}
