import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { forkRun } from "../../executor/fork-run.js";
import { sourceLaunch } from "../../executor/fork-launch.js";
import type { CheckpointStore, JournalEntry } from "../../journal/checkpoint-store.js";
import { checkNewRunId } from "../../runs/run-id.js";
import { CliError, readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { openStore } from "../store-option.js";
import { flagsToGive, launchLineWithWord } from "../launch-line.js";
import type { ContinueFlags } from "../continue-run.js";
import { wordOptions } from "../word-options.js";

/** Continues a stored run by id, as `planloop runs resume` does. */
export type GoOn = (runId: string, flags: ContinueFlags & { tools: string }) => Promise<void>;

interface ForkFlags extends ContinueFlags {
  from: string;
  args?: string;
  plan?: string;
  runId?: string;
}

/**
 * `planloop runs fork <runId> --from <step>`: rerun from a step as a new run that reuses
 * what succeeded before it (`forkRun`). With `--tools` the new run goes on at once; without,
 * the command that continues it is printed.
 */
export function forkCommand(command: Command, io: CliIo, goOn: GoOn): void {
  wordOptions(command)
    .description("Rerun from a step as a new run: the steps that succeeded before it are reused, the step and those after it run again")
    .argument("<runId>", "the run to start from (a strategy's plan run: <id>/plan:<version>)")
    .requiredOption("--from <step>", "the step to run again")
    .option("--args <json>", "new arguments for that step, as JSON")
    .option("--plan <file>", "a whole edited plan (JSON) instead: the steps it changes or adds run too, with those after them")
    .option("--run-id <id>", "the new run's id (default: a new one)")
    .option("--tools <module>", "the tools module: the new run goes on at once (else the command that continues it is printed)")
    .option("--wait", "if another process holds the new run, wait")
    .action(async (from: string, flags: ForkFlags) => {
      const args = flags.args === undefined ? undefined : parseArgs(flags.args);
      const plan = flags.plan === undefined ? undefined : readJsonFile(flags.plan, "plan");
      // The new run's id, by the one rule every face checks new ids with.
      const runId = flags.runId === undefined ? randomUUID() : checkNewRunId(flags.runId, { field: "--run-id" });
      const store = await openStore(flags.store, { readonly: false });
      let continues: string;
      try {
        // A fork this command is to run must be one it can run: refused before anything is written.
        if (flags.tools !== undefined) await refuseUnlaunched(store, from);
        const fork = await forkRun(store, {
          from,
          step: flags.from,
          runId,
          ...(args === undefined ? {} : { args }),
          ...(plan === undefined ? {} : { plan }),
        });
        const launch = (await store.getRun(fork.runId))?.journal.find((entry) => entry.kind === "launch");
        io.out(`run ${fork.runId}: from ${from} at step ${flags.from}; reuses ${list(fork.reused)}, runs ${list(fork.rerun)} again`);
        continues = !launch
          ? `${cannotRun(from)}: continue it from your program: executePlan({ plan, tools, store, runId: "${fork.runId}" })`
          : `continue it: planloop runs resume ${fork.runId} --tools <module>${namedAgain(fork.runId, launch)} --store ${flags.store}`;
      } finally {
        await store.close();
      }
      if (flags.tools === undefined) return io.out(continues);
      // The person's word (--model, --base-url, …) goes on with it: the new run's line is the source's.
      await goOn(runId, { ...flags, tools: flags.tools });
    });
}

/** The flags the person names again to continue the new run: a model module, the server, the Redis (` --model <module>`). */
function namedAgain(runId: string, launch: Extract<JournalEntry, { kind: "launch" }>): string {
  try {
    const { unconfirmed } = launchLineWithWord(runId, launch, { tools: "given" });
    return unconfirmed.length === 0 ? "" : ` ${flagsToGive(unconfirmed, " ")}`;
  } catch (error) {
    // A line planloop did not write: runs resume says so, and runs nothing.
    if (error instanceof CliError) return "";
    throw error;
  }
}

/** A source whose rerun the planloop command cannot continue (no command line of planloop's to derive one from): a clear no. */
async function refuseUnlaunched(store: CheckpointStore, from: string): Promise<void> {
  const source = await store.getRun(from);
  // An unknown run, or one of another kind, is forkRun's to refuse, in its words.
  if (source === undefined || source.entry !== "executePlan" || (await sourceLaunch(store, source)) !== undefined) return;
  throw new CliError(
    `${cannotRun(from)}; make the fork without --tools and continue it from your program, or fork it there: ` +
      `forkRun(store, { from, step }), then executePlan({ plan: fork.plan, tools, store, runId: fork.runId })`,
  );
}

const cannotRun = (from: string) =>
  `planloop cannot run a rerun of "${from}": it was started from a program (or by planloop ask without --tools), ` +
  "so no command line of planloop's says how";

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`--args takes JSON (e.g. '{"order":"A8"}'); got ${text}`);
  }
}

const list = (keys: readonly string[]) => (keys.length === 0 ? "none" : keys.join(", "));
