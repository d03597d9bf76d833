import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { askCommand } from "./commands/ask-command.js";
import { benchCommand } from "./commands/bench-command.js";
import { demoCommand } from "./commands/demo-command.js";
import { planCommands } from "./commands/plan-commands.js";
import { traceCommand } from "./commands/trace-command.js";
import { runsCommand } from "./commands/runs-command.js";
import { workerCommand } from "./commands/worker-command.js";
import { CliError } from "./cli-error.js";
import { PlanloopError } from "../core/errors.js";
import type { CliIo } from "./cli-io.js";

export type { CliIo };

/** The package's version, from its package.json (two folders up from src/cli and dist/cli alike). */
const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

export function createProgram(io: CliIo): Command {
  const program = new Command("planloop")
    .description("Plan a dependency graph of steps, run them in parallel, observe and replan")
    .version(version, "-V, --version", "print planloop's version")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.err(text.trimEnd()) });
  demoCommand(program, io);
  askCommand(program, io);
  planCommands(program, io);
  traceCommand(program, io);
  benchCommand(program, io);
  workerCommand(program, io);
  runsCommand(program, io, async (argv) => {
    await createProgram(io).parseAsync(argv, { from: "user" });
  });
  return program;
}

/**
 * Runs the CLI on `argv` (without node and the script) and returns the exit code: 0 when the
 * run completed, 1 when it ended otherwise, 2 for bad input. Errors are one line, no stack.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = createProgram({ ...io, exitCode: (value) => (code = value) });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError || error instanceof TypeError || PlanloopError.isInstance(error)) {
      io.err(`planloop: ${(error as Error).message.split("\n").join(" ")}`);
      return 2;
    }
    io.err(`planloop: unexpected error: ${error instanceof Error ? error.message : String(error)} (set PLANLOOP_DEBUG=1 for the stack)`);
    if (process.env.PLANLOOP_DEBUG) io.err(String((error as Error).stack));
    return 1;
  }
}
