import type { RunChangeListener } from "../journal/checkpoint-store.js";

/**
 * A store's one change feed, shared by all who listen (`watchRuns`): `start` opens it with the
 * first listener (a LISTEN connection, a poller) and what it returns stops it when the last one
 * leaves. What it hears goes to every listener; a listener that throws does not stop the others.
 */
export function sharedFeed(start: (tell: RunChangeListener) => () => void): SharedFeed {
  const listeners = new Set<RunChangeListener>();
  let stop: (() => void) | undefined;
  const tell: RunChangeListener = (runIds) => {
    for (const listener of [...listeners])
      try {
        listener(runIds);
      } catch {
        // a listener's own failure is its own
      }
  };
  const halt = () => {
    stop?.();
    stop = undefined;
  };
  return {
    watch: (listener) => {
      listeners.add(listener);
      stop ??= start(tell);
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) halt();
      };
    },
    close: () => {
      listeners.clear();
      halt();
    },
  };
}

export interface SharedFeed {
  /** `watchRuns`: listens, and returns how to stop. */
  watch(listener: RunChangeListener): () => void;
  /** Stops the feed for everyone (the store closes). */
  close(): void;
}
