// A store as a process that dies sees it: after `die()`, nothing it sends arrives (every call
// it makes never settles), so it writes nothing more and its lease runs out, while the test
// continues the run through the store itself, as the next process would.
import type { CheckpointStore } from "planloop";

/** How long the dying process's lease lasts: the next caller, waiting, takes the run over after it. */
export const dyingLease = { ttlMs: 40 };

/** Options for the call that continues a run a dying store's process held: it waits for the lease. */
export const takeOver = { lease: { onBusy: "wait" as const } };

export function dyingStore(store: CheckpointStore): { store: CheckpointStore; die(): void } {
  let dead = false;
  const view = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (dead ? new Promise(() => {}) : (value as (...all: unknown[]) => unknown).apply(target, args));
    },
  });
  return { store: view, die: () => (dead = true) };
}

/**
 * The run of a process that died: its promise is let go. (It ends with `LeaseLostError` once
 * its lease is given up, as a cut-off process's would, but nobody is there to read it.)
 */
export function abandoned(run: Promise<unknown>): void {
  run.catch(() => {});
}
