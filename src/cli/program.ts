import { createRequire } from "node:module";
import type * as Commander from "commander";
import { CliError } from "./cli-error.js";
import { PlanloopError, RunBusyError } from "../core/errors.js";
import type { CliIo } from "./cli-io.js";
import { busyExitCode } from "./command-process.js";

export type { CliIo };

const require = createRequire(import.meta.url);
/** The package's version, from its package.json (two folders up from src/cli and dist/cli alike). */
const { version } = require("../../package.json") as { version: string };
// Required rather than imported: commander is CommonJS, and importing it would have node
// scan its source for exports first, a few milliseconds of every command's start.
const { Command, CommanderError } = require("commander") as typeof Commander;
type Command = Commander.Command;

type Register = (program: Command, io: CliIo, rerun: (argv: string[], io?: CliIo) => Promise<void>) => void;

/**
 * The commands, each loaded only when it is the one asked for: `--help` and a command that
 * needs little (validate) do not pay for loading the executor, the strategies and the rest.
 * The others are listed by name, arguments and description. The descriptions live here only:
 * a loaded command takes its own from this list.
 */
const commands: Array<{ names: Record<string, [args: string, description: string]>; load: () => Promise<Register> }> = [
  {
    names: { demo: ["", "Run seed 001's weekly report over a local SQLite database: parallel queries, two replans, a report"] },
    load: async () => (await import("./commands/demo-command.js")).demoCommand,
  },
  {
    names: { ask: ["<task>", "Run a task of your own with your tools and a real model, through one strategy or all five"] },
    load: async () => (await import("./commands/ask-command.js")).askCommand,
  },
  {
    names: { validate: ["<plan.json>", "Check a plan (JSON) and print every problem"] },
    load: async () => (await import("./commands/validate-command.js")).validateCommand,
  },
  {
    names: { run: ["<plan.json>", "Execute a fixed plan with the tools a module exports; a run that waits for a human saves its state"] },
    load: async () => (await import("./commands/run-command.js")).runCommand,
  },
  {
    names: {
      trace: ["[events.jsonl]", "Write a self-contained HTML timeline of a run: from its events (JSONL), or a run kept in a store (--run)"],
    },
    load: async () => (await import("./commands/trace-command.js")).traceCommand,
  },
  {
    names: { bench: ["", "Run ReAct, Plan-and-Execute, ReWOO, LLMCompiler and code mode on the same tasks and compare them"] },
    load: async () => (await import("./commands/bench-command.js")).benchCommand,
  },
  {
    names: { worker: ["", "Run plan steps from a BullMQ queue on Redis (the coordinator runs with --redis)"] },
    load: async () => (await import("./commands/worker-command.js")).workerCommand,
  },
  {
    names: { ui: ["", "Serve a local web app over a store: runs live, every model call, an approval inbox"] },
    load: async () => (await import("./commands/ui-command.js")).uiCommand,
  },
  {
    names: { serve: ["", "Serve a store until Ctrl-C: wake waiting runs, start scheduled runs, continue runs whose owner is gone"] },
    load: async () => (await import("./commands/serve-command.js")).serveCommand,
  },
  {
    names: { mcp: ["", "Serve planloop as an MCP server over stdio: start plans and tasks, decide and cancel runs from an MCP client"] },
    load: async () => (await import("./commands/mcp-command.js")).mcpCommand,
  },
  {
    names: { schedules: ["", "Add, list, pause, resume and remove the schedules kept in a store (planloop serve starts them)"] },
    load: async () => (await import("./commands/schedules-command.js")).schedulesCommand,
  },
  {
    names: { runs: ["", "List, show and continue the runs kept in a checkpoint store"] },
    load: async () => (await import("./commands/runs-command.js")).runsCommand,
  },
];

/** The command `argv` asks for (`help <command>` asks for its help), if any. */
function requested(argv: readonly string[]): string | undefined {
  const words = argv.filter((word) => !word.startsWith("-"));
  return words[0] === "help" ? words[1] : words[0];
}

export async function createProgram(io: CliIo, argv: readonly string[]): Promise<Command> {
  const program = new Command("planloop")
    .description("Plan a dependency graph of steps, run them in parallel, observe and replan")
    .version(version, "-V, --version", "print planloop's version")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.err(text.trimEnd()) });
  const wanted = requested(argv);
  const rerun = async (again: string[], other = io) => {
    await (await createProgram(other, again)).parseAsync(again, { from: "user" });
  };
  for (const { names, load } of commands) {
    if (wanted !== undefined && Object.hasOwn(names, wanted)) {
      (await load())(program, io, rerun);
      for (const command of program.commands) if (Object.hasOwn(names, command.name())) command.description(names[command.name()]![1]);
    } else {
      for (const [name, [args, description]] of Object.entries(names)) program.command(`${name} ${args}`.trim()).description(description);
    }
  }
  return program;
}

/**
 * Runs the CLI on `argv` (without node and the script) and returns the exit code: 0 when the
 * run completed, 1 when it ended otherwise, 2 for bad input, 75 when another process runs the run. Errors are one line, no stack.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = await createProgram({ ...io, exitCode: (value) => (code = value) }, argv);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError || error instanceof TypeError || PlanloopError.isInstance(error)) {
      io.err(
        `planloop: ${cliMessage(error as Error)
          .split("\n")
          .join(" ")}`,
      );
      if (error instanceof CliError && error.detail !== undefined) io.err(error.detail);
      // Another process runs the run: not bad input, but a try-again-later (`planloop serve` tells them apart).
      return error instanceof RunBusyError ? busyExitCode : 2;
    }
    io.err(`planloop: unexpected error: ${error instanceof Error ? error.message : String(error)} (set PLANLOOP_DEBUG=1 for the stack)`);
    if (process.env.PLANLOOP_DEBUG) io.err(String((error as Error).stack));
    return 1;
  }
}

/** A library error in the words of the command line (its flags, not the library's options). */
function cliMessage(error: Error): string {
  if (!(error instanceof RunBusyError)) return error.message;
  return (
    `run "${error.runId}" is being run by ${error.owner} (its lease runs to ${new Date(error.expiresAt).toISOString()}); ` +
    "nothing was started. Add --wait to continue it once it is free, or try again once it is done"
  );
}
