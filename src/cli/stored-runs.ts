import { randomUUID } from "node:crypto";
import type { CheckpointStore, JournalEntry, RunOrigin, StoredRun } from "../journal/checkpoint-store.js";
import { checkNewRunId, isNewRunId } from "../runs/run-id.js";
import { isRecord } from "../core/is-record.js";
import type { LeaseOptions } from "../journal/run-lease.js";
import { createRunWith } from "../journal/durable-envelope.js";
import { CliError } from "./cli-error.js";

/**
 * Opens the run a command is about to start in the store, with the command line that starts
 * it (`launch`), so that `planloop runs resume <id>` can run it again. The line is written under
 * the run's lease, as every write is (another process that took the new run first makes this a
 * `RunBusyError`, or, with `lease.onBusy: "wait"`, a wait). An id the store holds already is left
 * as it is: the command continues that run. A new run's id is checked by the library's one rule
 * (`checkNewRunId`); one `planloop serve` starts for a schedule (`scheduleFire`) is that fire's,
 * and the schedule is kept as the run's origin.
 */
export async function recordLaunch(
  store: CheckpointStore,
  launch: { runId: string | undefined; entry: string; argv: string[]; lease?: LeaseOptions; scheduleFire?: string | undefined },
): Promise<string> {
  const origin = originOfFire(launch.scheduleFire);
  const runId = launch.runId ?? randomUUID();
  if (launch.runId !== undefined) await checkStartedId(store, runId, origin);
  const entries = (): JournalEntry[] => [{ kind: "launch", argv: launch.argv, cwd: process.cwd() }];
  await createRunWith(store, { runId, entry: launch.entry, entries, lease: launch.lease, origin });
  return runId;
}

/** The schedule and fire time of `--schedule-fire` (`{"name":…,"fireAt":…}`), which `planloop serve` starts a schedule's run with. */
function originOfFire(text: string | undefined): RunOrigin | undefined {
  if (text === undefined) return undefined;
  const fire = readJson(text);
  if (!isRecord(fire) || typeof fire.name !== "string" || typeof fire.fireAt !== "number")
    throw new CliError(`--schedule-fire takes {"name":…,"fireAt":…}, not ${text}`);
  return { schedule: { name: fire.name, fireAt: fire.fireAt } };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A --run-id names a new run (by the one rule, or the schedule fire's id) or one the store holds already (continued). */
async function checkStartedId(store: CheckpointStore, runId: string, origin: RunOrigin | undefined): Promise<void> {
  if (origin === undefined && isNewRunId(runId)) return;
  if (origin === undefined && (await store.listRuns({ runId, limit: 1 })).length > 0) return;
  checkNewRunId(runId, { field: "--run-id", origin });
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
