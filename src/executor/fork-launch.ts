import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckpointStore, JournalEntry, StoredRun } from "../journal/checkpoint-store.js";
import type { Plan } from "../plan/plan-schema.js";

/*
 * The command line a fork is continued with (`planloop runs resume <fork>`, the ui, `planloop
 * serve`): a fork is a plan run, so it goes on as `planloop run <plan file>` would. Only a
 * source the planloop command started has one to give; a run of a program's has none, and the
 * program continues its fork.
 */

type Launch = Extract<JournalEntry, { kind: "launch" }>;

/** The flags of a `planloop ask` line that a plan run of its strategy needs: its tools, and its model for agent steps. */
const toolFlags = ["--tools"];
const modelFlags = ["--model", "--base-url", "--api-key-env"];

/** The line a fork's is made from: the source's own, or the `planloop ask` line of the strategy run it belongs to. */
export interface SourceLaunch {
  launch: Launch;
  asked: boolean;
}

/**
 * What the source was started with, when the planloop command started it: a `planloop run`
 * run's own line, or, for a strategy's plan run (`<id>/plan:<v>`), the `planloop ask` line of
 * its strategy run. Reads only; the fork's line is made when the fork is written (`forkLaunch`).
 */
export async function sourceLaunch(store: CheckpointStore, source: StoredRun): Promise<SourceLaunch | undefined> {
  const own = launchIn(source);
  if (own !== undefined) return { launch: own, asked: false };
  const asked = await askLaunchOf(store, source.runId);
  return asked === undefined ? undefined : { launch: asked, asked: true };
}

/**
 * The fork's launch line: the source's `planloop run` line (with an edited plan in a file of its
 * own), or a `planloop run` line over the plan with the ask's tools and model. The plan's file
 * is `.planloop/forks/<fork id>.json` in the folder the source ran in.
 */
export function forkLaunch(source: SourceLaunch, fork: { runId: string; plan: Plan; edited: boolean }): Launch {
  const { launch } = source;
  if (!source.asked) {
    if (!fork.edited || launch.argv[0] !== "run") return launch;
    return { ...launch, argv: ["run", planFile(launch.cwd, fork), ...launch.argv.slice(2)] };
  }
  // Only a plan with agent steps (steps without a tool) needs the model: without, resuming asks for no model module.
  const kept = fork.plan.steps.some((step) => step.tool === undefined) ? [...toolFlags, ...modelFlags] : toolFlags;
  return { ...launch, argv: ["run", planFile(launch.cwd, fork), ...keptFlags(launch.argv, kept)] };
}

/** The `planloop ask` line of the strategy run a plan run (`<id>/plan:<v>`) belongs to. */
async function askLaunchOf(store: CheckpointStore, runId: string): Promise<Launch | undefined> {
  const at = runId.lastIndexOf("/plan:");
  if (at <= 0) return undefined;
  const parent = await store.getRun(runId.slice(0, at));
  const launch = parent === undefined ? undefined : launchIn(parent);
  // A `planloop run` line needs --tools; an ask without tools has none to give.
  return launch?.argv[0] === "ask" && launch.argv.includes("--tools") ? launch : undefined;
}

function keptFlags(argv: readonly string[], flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let position = 2; position < argv.length; position += 1) {
    const flag = argv[position]!;
    const value = argv[position + 1];
    if (!flag.startsWith("--") || value === undefined || value.startsWith("--")) continue;
    if (flags.includes(flag)) kept.push(flag, value);
    position += 1;
  }
  return kept;
}

function launchIn(run: StoredRun): Launch | undefined {
  return run.journal.find((entry): entry is Launch => entry.kind === "launch");
}

function planFile(cwd: string, fork: { runId: string; plan: Plan }): string {
  const folder = join(cwd, ".planloop", "forks");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${fork.runId.replace(/[^\w.-]+/g, "_")}.json`);
  writeFileSync(file, JSON.stringify(fork.plan, null, 2));
  return file;
}
