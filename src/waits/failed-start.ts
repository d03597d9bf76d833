import { RunBusyError } from "../core/errors.js";
import type { CheckpointStore, RunOrigin } from "../journal/checkpoint-store.js";
import { RunLease } from "../journal/run-lease.js";

/** The entry a schedule's run that could not start is kept under (no entry point ever ran it). */
export const failedStartEntry = "runSchedules";

/**
 * Keeps a schedule's run that could not start (no API key, a module that does not load) as a
 * failed run with the reason, under the id and origin it would have had: it shows in `runs list`,
 * the ui and `schedules list` beside the runs that did start, instead of one line in a log. A run
 * the launch created before it failed is left as it is: its journal says how far it got. Written
 * under the run's lease, as every deciding write: another process on the same fire time wins.
 */
export async function keepFailedStart(
  store: CheckpointStore,
  fire: { runId: string; origin: RunOrigin; reason: string; at: number },
): Promise<void> {
  const { runId, origin, reason, at } = fire;
  if ((await store.createRun({ runId, entry: failedStartEntry, at, origin })) === "exists") return;
  let lease: RunLease;
  try {
    lease = await RunLease.take(store, runId, { lease: { onBusy: "fail" } });
  } catch (error) {
    if (error instanceof RunBusyError) return;
    throw error;
  }
  try {
    await store.finishRun(runId, { status: "failed", reason, runId }, at, lease.token);
  } finally {
    await lease.release();
  }
}
