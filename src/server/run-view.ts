import { appendedOutcome, type CheckpointStore } from "../journal/checkpoint-store.js";
import { childrenOf, lastPause, pendingOf } from "../strategies/stored-runs.js";
import { maskSecrets } from "../trust/secrets.js";
import type { PendingItem, RunView } from "../client/api-types.js";

/** A run as `GET /api/runs/:id` gives it: its row, what it waits for (secret-keyed arguments masked), the decisions it was given, and its result once finished; undefined for no such run. */
export async function viewOfRun(store: CheckpointStore, runId: string): Promise<RunView | undefined> {
  const run = await store.getRun(runId);
  if (run === undefined) return undefined;
  const children = await childrenOf(store, runId);
  const result = run.result as { status?: string } | undefined;
  const paused = run.status === "finished" ? undefined : lastPause(run, children);
  const pending = paused === undefined ? [] : (maskSecrets(pendingOf(paused)) as unknown as PendingItem[]);
  const status = result?.status ?? appendedOutcome(run.journal)?.status ?? "running";
  const decisions = [run, ...children].flatMap((each) =>
    each.journal.flatMap((entry) =>
      entry.kind === "human-decision"
        ? [
            {
              run: each.runId,
              id: entry.id,
              decision: entry.decision,
              ...(entry.at === undefined ? {} : { at: entry.at }),
              ...(entry.by === undefined ? {} : { by: entry.by }),
            },
          ]
        : [],
    ),
  );
  return {
    runId,
    entry: run.entry,
    status,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    pending,
    decisions,
    ...(run.origin === undefined ? {} : { origin: run.origin }),
    ...(run.result === undefined ? {} : { result: run.result }),
  };
}
