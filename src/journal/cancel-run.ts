import type { LeaseOptions } from "./run-lease.js";
import { RunLease } from "./run-lease.js";
import type { CheckpointStore } from "./checkpoint-store.js";

/** How a cancel of a stored run went: ended now, finished before, or no such run. */
export type CancelOutcome = "cancelled" | "finished" | "missing";

/**
 * Ends a stored run for good, as cancelled, under its lease: a run another process is running
 * is not ended under it (`lease.onBusy`: fail with `RunBusyError`, or wait). For a run no
 * process holds: a waiting one, or one whose owner is gone. A run running in this process is
 * cancelled by its signal instead.
 */
export async function cancelStoredRun(
  store: CheckpointStore,
  runId: string,
  options: { reason: string; lease?: LeaseOptions; at?: () => number },
): Promise<CancelOutcome> {
  const before = await store.getRun(runId);
  if (before === undefined) return "missing";
  if (before.status === "finished") return "finished";
  const lease = await RunLease.take(store, runId, { lease: options.lease ?? { onBusy: "fail" } });
  try {
    const run = await store.getRun(runId);
    if (run?.status === "finished") return "finished";
    const at = options.at ?? Date.now;
    await store.finishRun(runId, { status: "cancelled", reason: options.reason, runId }, at(), lease.token);
    return "cancelled";
  } finally {
    await lease.release();
  }
}
