import { resolve } from "node:path";
import type { CheckpointStore, StoredRun } from "../journal/checkpoint-store.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { trustedLaunchLine, type PersonsWord } from "./launch-line.js";
import { openStore, storeWhere } from "./store-option.js";
import { launchOf } from "./stored-runs.js";

/*
 * Continuing a stored run from the command line: the command that started it runs again, in
 * its folder, with the same id and store (`planloop runs resume|approve|…`, `runs wake`,
 * `planloop serve`). Nothing that finished runs again.
 */

/** Runs the planloop command again, in this process, on `argv` (a stored run's command line). */
export type Rerun = (argv: string[], io?: CliIo) => Promise<void>;

/** The flags of the commands that continue a stored run. */
export interface ContinueFlags {
  store: string;
  wait?: boolean;
  tools?: string;
  /** The model module to continue it with, for a run started with `--model <module>`. */
  model?: string;
  /** Where to keep the provider's limit, for a run started with `--limits-shared` (not taken from the store unless it is the run's own). */
  limitsShared?: string;
  /** The server the model calls go to, for a run started with `--base-url` (not taken from the store). */
  baseUrl?: string;
  /** The Redis the steps go to, for a run started with `--redis` (not taken from the store). */
  redis?: string;
  /** Who gives the decisions (`--decided-by`), kept with them. */
  decidedBy?: string;
}

/** The store, for commands that only read it (a SQLite file is opened for reading). */
export async function usingStore(
  flag: string,
  use: (store: CheckpointStore) => Promise<void>,
  options = { readonly: true },
): Promise<void> {
  const store = await openStore(flag, options);
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

export async function storedRun(store: CheckpointStore, runId: string, flag: string): Promise<StoredRun> {
  const run = await store.getRun(runId);
  if (run === undefined) {
    throw new CliError(
      `there is no run "${runId}" in ${storeWhere(flag, store)}; name the store the run was kept in with --store or PLANLOOP_STORE`,
    );
  }
  return run;
}

/**
 * Runs the command that started a stored run again, in the folder it ran in, with the same
 * id and store, and the human's decisions. A finished run is shown, not run.
 */
export async function resumeRun(
  io: CliIo,
  rerun: Rerun,
  request: { runId: string; flags: ContinueFlags; decisions: string[] },
): Promise<void> {
  const line = await continuationLine(io, request);
  if (line === undefined) return;
  process.chdir(line.cwd);
  await rerun(line.argv);
}

/**
 * The command line that continues a stored run, and the folder to run it in: the line that
 * started it (checked: only planloop's own commands, with this command's tools and model), its
 * id and store, and the decisions. Undefined for a finished run, which is shown instead.
 */
export async function continuationLine(
  io: CliIo,
  request: { runId: string; flags: ContinueFlags; decisions: string[]; ask?: PersonsWord["ask"] },
): Promise<{ argv: string[]; cwd: string } | undefined> {
  const { store: storeFlag } = request.flags;
  // The store flag as it reads from here, before the command moves to the run's folder.
  const store = storeFlag.startsWith("sqlite:") ? `sqlite:${resolve(storeFlag.slice("sqlite:".length))}` : storeFlag;
  let launch: ReturnType<typeof launchOf> | undefined;
  await usingStore(storeFlag, async (opened) => {
    const run = await storedRun(opened, request.runId, storeFlag);
    if (run.status === "finished") {
      const result = run.result as { status?: string } | undefined;
      // Decisions checked a moment ago, and the run finished meanwhile (another face decided it): they were not taken.
      if (request.decisions.length > 0)
        throw new CliError(
          `run ${run.runId} finished (${result?.status ?? "finished"}) before these decisions were taken: nothing was decided. See planloop runs show ${run.runId}`,
        );
      io.out(`run ${run.runId} has finished (${result?.status ?? "finished"}); nothing runs again: planloop runs show ${run.runId}`);
      return;
    }
    launch = launchOf(run);
  });
  if (launch === undefined) return undefined;
  const { tools, model, limitsShared, baseUrl, redis } = request.flags;
  const argv = await trustedLaunchLine(request.runId, launch, { tools, model, limitsShared, baseUrl, redis, store, ask: request.ask });
  return { argv: [...argv, "--store", store, "--run-id", request.runId, ...request.decisions], cwd: launch.cwd };
}
