import type { CheckpointStore, JournalEntry, RunOrigin } from "./checkpoint-store.js";
import { RunLease, type LeaseOptions } from "./run-lease.js";
import { settingUp } from "./checkpoints.js";
import type { Checkpoints } from "./checkpoint-writer.js";
import type { MaybePromise } from "../core/maybe-async.js";

/** What one entry point does inside the envelope (see `runEnveloped`). */
export interface EnvelopedRun<Run, Result> {
  /** Sets the run up: its options read, its state rebuilt. A throw here gives the lease up at once. */
  start(): Run | Promise<Run>;
  /** Runs it to its result. */
  body(run: Run): Promise<Result>;
  /** How the result is kept: `"finished"` (a run that can not go on), or the `paused` entry of one that can. */
  kept(result: Result, run: Run): "finished" | JournalEntry;
  /** After the result is kept (what the run learned for the next ones). */
  afterwards?(run: Run): MaybePromise<void>;
  /** The run's own timers and listeners, released whatever happened. */
  dispose(run: Run): void;
}

/**
 * Every entry point's durable run, from a run opened by id (and its lease taken) to its end: set
 * up, run, the result kept as finished or as a pause, what was buffered committed if the run
 * throws (its failed model call is readable), then the lease given up. The plan runs, the ReAct
 * loop and the strategies go through here; without a store (`checkpoints` undefined) it is the
 * run alone.
 */
export async function runEnveloped<Run, Result>(checkpoints: Checkpoints | undefined, steps: EnvelopedRun<Run, Result>): Promise<Result> {
  const run = await settingUp(checkpoints?.durability, () => steps.start());
  try {
    const result = await steps.body(run);
    const afterwards = () => steps.afterwards?.(run);
    if (checkpoints === undefined) await afterwards();
    else {
      const kept = steps.kept(result, run);
      // What the run learned is kept with its end (one commit on a store that batches writes).
      if (kept === "finished") await checkpoints.finish(result, afterwards);
      else {
        checkpoints.write([kept]);
        await checkpoints.commit();
        await afterwards();
      }
    }
    return result;
  } catch (error) {
    await checkpoints?.commitAsItFails();
    throw error;
  } finally {
    steps.dispose(run);
    await checkpoints?.close();
  }
}

/**
 * A new run created with its first entries, written under its lease as every write is (a fork's
 * reused steps, a command's launch line): `"exists"` and nothing written when the id is taken.
 * Another process that takes the new run before the lease here is a `RunBusyError` (with
 * `lease.onBusy: "wait"`, a wait), and nothing of this call's is written into its run.
 */
export async function createRunWith(
  store: CheckpointStore,
  /** `entries` is asked for once the run is created (making them may write files of their own). */
  run: { runId: string; entry: string; entries: () => JournalEntry[]; lease?: LeaseOptions | undefined; origin?: RunOrigin | undefined },
): Promise<"created" | "exists"> {
  if ((await store.createRun({ runId: run.runId, entry: run.entry, at: Date.now(), origin: run.origin })) === "exists") return "exists";
  const lease = await RunLease.take(store, run.runId, { lease: run.lease });
  try {
    await store.append(run.runId, run.entries(), Date.now(), lease.token);
  } finally {
    await lease.release();
  }
  return "created";
}
