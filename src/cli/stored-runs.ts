import { randomUUID } from "node:crypto";
import type { CheckpointStore, JournalEntry, StoredRun } from "../core/checkpoint-store.js";
import { CliError } from "./cli-error.js";

/**
 * Opens the run a command is about to start in the store, with the command line that starts
 * it (`launch`), so that `planloop runs resume <id>` can run it again. An id the store holds
 * already is left as it is: the command continues that run.
 */
export async function recordLaunch(
  store: CheckpointStore,
  launch: { runId: string | undefined; entry: string; argv: string[] },
): Promise<string> {
  const runId = launch.runId ?? randomUUID();
  if ((await store.createRun({ runId, entry: launch.entry, at: Date.now() })) === "created") {
    await store.append(runId, [{ kind: "launch", argv: launch.argv, cwd: process.cwd() }], Date.now());
  }
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
