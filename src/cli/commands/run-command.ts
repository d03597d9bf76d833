import { Option, type Command } from "commander";
import { pauseOptions } from "../pause-resume.js";
import type { RunFlags } from "./run-action.js";
import { defaultStore } from "../default-store.js";
import type { CliIo } from "../cli-io.js";
import { toolsModuleShape } from "../tools-shape.js";

/** `planloop run`: executes a plan the user wrote (the run itself loads when it starts). */
export function runCommand(program: Command, io: CliIo): void {
  const run = program
    .command("run")
    .argument("<plan.json>", "the plan to run")
    .requiredOption("--tools <module>", toolsModuleShape)
    .option("--concurrency <n>", "steps running at once", "4")
    .option(
      "--model <spec>",
      "the model of the plan's agent steps (steps without a tool): openai:<name>, <name> with --base-url, or ./model.mjs",
    )
    .option("--base-url <url>", "an OpenAI-compatible server for --model")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--requests-per-minute <n>", "the provider's limit: at most n requests a minute, spaced evenly (docs/limits.md)")
    .option("--tokens-per-minute <n>", "the provider's limit: at most n tokens (prompt and answer) a minute (docs/limits.md)")
    .option("--concurrent-requests <n>", "the provider's limit: at most n requests at once in this process")
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "keep the provider's limit there, shared with every process given the same",
    )
    .option("--limits-shared-env <name>", "the same, read from this environment variable (a URL with a password stays out of ps)")
    .option("--json", "print the whole result as JSON (and progress on stderr)")
    .option("--events <file>", "write the run's events as JSONL (for planloop trace)")
    .option("--store <sqlite:path|postgres://…>", "checkpoint every step here; continue with planloop runs resume <id>", defaultStore)
    .option("--no-store", "keep the run in memory only")
    .option("--run-id <id>", "the run's id in the store (default: a new one, printed); an unfinished run's id continues it")
    .option("--redis <url>", "run the steps on workers (planloop worker) through this Redis, not in this process")
    .option("--queue <name>", "the workers' queue (with --redis)", "planloop")
    // How planloop serve starts a schedule's run: kept as the run's origin. Not for people, so not in --help.
    .addOption(new Option("--schedule-fire <json>").hideHelp());
  // The run itself is loaded when a run starts: `validate` and `--help` do not pay for the executor.
  pauseOptions(run, "<plan>.state.json").action(async (path: string, flags: RunFlags) =>
    (await import("./run-action.js")).runPlanFile(io, path, flags),
  );
}
