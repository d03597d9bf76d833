/**
 * Something that waits on a promise and on a signal, told once which came first: the
 * promise fulfilled (`ok`), it rejected, or the signal aborted (`ok` false, with its reason).
 * An object rather than a callback, so a call in flight can be its own waiter; it carries
 * its own place in the signal's list of waiters, so joining and leaving it cost no hashing
 * (a hundred thousand calls in flight join and leave one list).
 */
export abstract class SettleWaiter {
  /** Neighbours in the signal's list while the waiter waits; undefined otherwise. */
  previous: SettleWaiter | undefined = undefined;
  next: SettleWaiter | undefined = undefined;
  abstract settle(ok: boolean, value: unknown): void;
}

/** The head of a signal's circular list of waiters. */
class WaiterList extends SettleWaiter {
  constructor() {
    super();
    this.previous = this.next = this;
  }

  settle(): void {}

  add(waiter: SettleWaiter): void {
    const last = this.previous!;
    waiter.previous = last;
    waiter.next = this;
    last.next = waiter;
    this.previous = waiter;
  }

  /** Takes the waiter out; false if it was not waiting (the signal took it first). */
  remove(waiter: SettleWaiter): boolean {
    const { previous, next } = waiter;
    if (previous === undefined) return false;
    previous.next = next;
    next!.previous = previous;
    waiter.previous = waiter.next = undefined;
    return true;
  }

  /** Empties the list, handing back what was in it. */
  drain(): SettleWaiter[] {
    const all: SettleWaiter[] = [];
    for (let waiter = this.next!; waiter !== this;) {
      const after = waiter.next!;
      waiter.previous = waiter.next = undefined;
      all.push(waiter);
      waiter = after;
    }
    this.previous = this.next = this;
    return all;
  }
}

/** Waiters on each signal; one listener per signal serves all of them. */
const waiting = new WeakMap<AbortSignal, WaiterList>();

function waitersOf(signal: AbortSignal): WaiterList {
  let list = waiting.get(signal);
  if (!list) {
    const created = new WaiterList();
    list = created;
    waiting.set(signal, created);
    // Out of the list before they hear of it: a promise that settles later finds them gone.
    // Each is told even if one before it throws (that error is thrown on, a turn later).
    signal.addEventListener(
      "abort",
      () => {
        for (const waiter of created.drain()) {
          try {
            waiter.settle(false, signal.reason);
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
  }
  return list;
}

/** A child signal's side of the waiter list: it aborts with its parent. */
class ChildWaiter extends SettleWaiter {
  readonly controller = new AbortController();

  settle(_ok: boolean, reason: unknown): void {
    this.controller.abort(reason);
  }
}

/**
 * A signal of its own for one call, aborted when `signal` aborts, without a listener of its own
 * on `signal` (the one listener of its waiter list serves every child). Whatever the call adds
 * to its signal (an HTTP client's listener per request) stays on the child, so a hundred calls
 * at once put no hundred listeners on the run's signal. `abort` aborts the child alone (a
 * timeout); `release` once the call is done.
 */
export function childSignal(signal: AbortSignal): { signal: AbortSignal; abort(reason: unknown): void; release(): void } {
  const child = new ChildWaiter();
  const { controller } = child;
  const abort = (reason: unknown) => controller.abort(reason);
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { signal: controller.signal, abort, release: () => {} };
  }
  const waiters = waitersOf(signal);
  waiters.add(child);
  return { signal: controller.signal, abort, release: () => void waiters.remove(child) };
}

/** A promise's side of `raceAbort`. */
class PromiseWaiter<T> extends SettleWaiter {
  constructor(
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    super();
  }

  settle(ok: boolean, value: unknown): void {
    if (ok) this.resolve(value as T);
    else this.reject(value);
  }
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as the signal aborts,
 * whichever comes first. Work that ignores its signal cannot hold the loop hostage.
 * Thousands of races on one signal share a single abort listener.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => whenSettled(promise, signal, new PromiseWaiter(resolve, reject)));
}

/**
 * Tells `waiter` how `promise` ended, or that the signal aborted first: once, and without a
 * promise of its own. For a plan of a hundred thousand calls in flight, one reaction per
 * call is all that waits, and the waiter is the call itself. A waiter waits on one promise
 * at a time.
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
      if (waiters.remove(waiter)) waiter.settle(true, value);
    },
    (error: unknown) => {
      if (waiters.remove(waiter)) waiter.settle(false, error);
    },
  );
}
