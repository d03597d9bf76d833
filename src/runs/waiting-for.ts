import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { childrenOf, lastPause, pendingOf } from "../strategies/stored-runs.js";
import type { WaitingRun } from "./decide-run.js";

/**
 * What a stored run waits for now (its own pause, or the plan run a strategy waits in), as
 * `decideRun` checks decisions against it; undefined for no such run. A finished run waits for
 * nothing and says how it ended.
 */
export async function waitingFor(store: CheckpointStore, runId: string): Promise<WaitingRun | undefined> {
  const run = await store.getRun(runId);
  if (run === undefined) return undefined;
  if (run.status === "finished") {
    const result = run.result as { status?: unknown } | undefined;
    return { runId, pending: [], finished: typeof result?.status === "string" ? result.status : "finished" };
  }
  const paused = lastPause(run, await childrenOf(store, runId));
  const pending =
    paused === undefined
      ? []
      : pendingOf(paused).map((item) => {
          const expiresAt = (item as { expiresAt?: unknown }).expiresAt;
          return { id: item.id, kind: item.kind, ...(typeof expiresAt === "number" ? { expiresAt } : {}) };
        });
  return { runId, pending };
}
