import type { Command } from "commander";

/**
 * The flags a command that continues stored runs takes in place of what a run's launch line
 * names (`launch-line.ts`): the store is not trusted to name a module or a place, so the person
 * names them again (the same, or their own). `--tools` each command words for itself.
 */
export function wordOptions(command: Command): Command {
  return command
    .option("--model <module>", "for a run started with a model module: the module to continue it with (not taken from the store)")
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "for a run started with --limits-shared elsewhere than its store: where to keep its limit (not taken from the store)",
    )
    .option(
      "--base-url <url>",
      "for a run started with --base-url: the server its model calls, and your API key, go to (not taken from the store)",
    )
    .option("--redis <url>", "for a run started with --redis: the Redis its steps go to (not taken from the store)");
}
