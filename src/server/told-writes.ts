import { andThen } from "../core/maybe-async.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";

/**
 * `store`, telling `written` of each run this process made, appended to or finished, once the write
 * is in the store: the server's streams of its own runs read a step's end the moment it is
 * committed, not at the store's next feed look (SQLite's poller, every 100 ms) or the run's next
 * event (a step's end event comes before its commit, which waits for the event loop to turn:
 * over SSE it reached a client 1.2 ms after it, p50, then 0.5 ms; bench/serve-cost.bench.ts).
 * Everything else is the store's own, with its `this`.
 */
export function toldWrites(store: CheckpointStore, written: (runId: string) => void): CheckpointStore {
  const told =
    <Rest extends unknown[]>(write: (runId: string, ...rest: Rest) => ReturnType<CheckpointStore["append"]>) =>
    (runId: string, ...rest: Rest) =>
      andThen(write.call(store, runId, ...rest), () => written(runId));
  const append = told(store.append);
  const finishRun = told(store.finishRun);
  // A run kept inside another is told as it is made too: a stream reads its kept runs' rows only when told one changed.
  const createRun: CheckpointStore["createRun"] = (run) =>
    andThen(store.createRun(run), (made) => {
      if (made === "created") written(run.runId);
      return made;
    });
  return new Proxy(store, {
    get(target, key) {
      if (key === "createRun") return createRun;
      if (key === "append") return append;
      if (key === "finishRun") return finishRun;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
