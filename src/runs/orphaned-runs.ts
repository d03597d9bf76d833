import { RunBusyError } from "../core/errors.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { RunLease } from "../journal/run-lease.js";

/**
 * Top-level runs still running whose owner is gone: untouched for `afterMs` and with a lease
 * this process can take (the owner's ran out, or it was a process of this host that died). The
 * lease is taken and given back at once: whoever continues the run takes it again.
 */
export async function orphanedRuns(store: CheckpointStore, options: { afterMs: number; at?: number; limit?: number }): Promise<string[]> {
  const found: string[] = [];
  const at = options.at ?? Date.now();
  for (const run of await store.listRuns({ topLevel: true, status: "running", limit: options.limit ?? 100 })) {
    if (run.updatedAt > at - options.afterMs) continue;
    try {
      await (await RunLease.take(store, run.runId, { lease: { onBusy: "fail" } })).release();
      found.push(run.runId);
    } catch (error) {
      if (!(error instanceof RunBusyError)) throw error;
    }
  }
  return found;
}
