import { randomUUID } from "node:crypto";
import type { CheckpointStore, JournalEntry, StoredRun } from "../journal/checkpoint-store.js";
import type { LeaseOptions } from "../journal/run-lease.js";
import { createRunWith } from "../journal/durable-envelope.js";
import { CliError } from "./cli-error.js";

/**
 * Opens the run a command is about to start in the store, with the command line that starts
 * it (`launch`), so that `planloop runs resume <id>` can run it again. The line is written under
 * the run's lease, as every write is (another process that took the new run first makes this a
 * `RunBusyError`, or, with `lease.onBusy: "wait"`, a wait). An id the store holds already is left
 * as it is: the command continues that run.
 */
export async function recordLaunch(
  store: CheckpointStore,
  launch: { runId: string | undefined; entry: string; argv: string[]; lease?: LeaseOptions },
): Promise<string> {
  const runId = launch.runId ?? randomUUID();
  const entries = (): JournalEntry[] => [{ kind: "launch", argv: launch.argv, cwd: process.cwd() }];
  await createRunWith(store, { runId, entry: launch.entry, entries, lease: launch.lease });
  return runId;
}

/** The command line that started a stored run; an error that says what to do when it has none. */
export function launchOf(run: StoredRun): Extract<JournalEntry, { kind: "launch" }> {
  const launch = run.journal.find((entry): entry is Extract<JournalEntry, { kind: "launch" }> => entry.kind === "launch");
  if (launch === undefined) {
    throw new CliError(
      `run "${run.runId}" was not started by the planloop command; continue it from your program: call ${run.entry} again with the same store and runId`,
    );
  }
  return launch;
}
