import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import type { Tool } from "../../core/tools/define-tool.js";
import { validatePlan } from "../../plan/validate-plan.js";
import { CliError, readJsonFile } from "../cli-error.js";
import { pauseOptions, type PauseFlags } from "../pause-resume.js";
import { defaultStore } from "../default-store.js";
import type { CliIo } from "../cli-io.js";

export function planCommands(program: Command, io: CliIo): void {
  program
    .command("validate")
    .description("Check a plan (JSON) and print every problem")
    .argument("<plan.json>", "the plan: { steps: [{ id, task, depends_on, tool?, args? }] }")
    .option("--tools <module>", "a JavaScript module exporting the tools, to check tool names and arguments")
    .action(async (path: string, flags: { tools?: string }) => {
      const plan = readJsonFile(path, "plan");
      const tools = flags.tools ? await loadTools(flags.tools) : undefined;
      const checked = validatePlan(plan, tools ? { tools } : {});
      if (checked.ok) {
        io.out(
          `valid: ${checked.plan.steps.length} steps${tools ? "" : " (tools not checked: pass --tools to check tool names and arguments)"}`,
        );
        return;
      }
      for (const error of checked.errors) io.out(`- ${error.message}`);
      io.exitCode(1);
    });

  const run = program
    .command("run")
    .description("Execute a fixed plan with the tools a module exports; a run that waits for a human saves its state")
    .argument("<plan.json>", "the plan to run")
    .requiredOption("--tools <module>", "a JavaScript module exporting the tools (an array `tools`, or tools as named exports)")
    .option("--concurrency <n>", "steps running at once", "4")
    .option("--json", "print the whole result as JSON (and progress on stderr)")
    .option("--events <file>", "write the run's events as JSONL (for planloop trace)")
    .option("--store <sqlite:path|postgres://…>", "checkpoint every step here; continue with planloop runs resume <id>", defaultStore)
    .option("--no-store", "keep the run in memory only")
    .option("--run-id <id>", "the run's id in the store (default: a new one, printed); an unfinished run's id continues it")
    .option("--redis <url>", "run the steps on workers (planloop worker) through this Redis, not in this process")
    .option("--queue <name>", "the workers' queue (with --redis)", "planloop");
  // The run itself is loaded when a run starts: `validate` and `--help` do not pay for the executor.
  pauseOptions(run, "<plan>.state.json").action(async (path: string, flags: RunFlags) =>
    (await import("./run-action.js")).runPlanFile(io, path, flags),
  );
}

export interface RunFlags extends PauseFlags {
  tools: string;
  concurrency: string;
  json?: boolean;
  events?: string;
  store: string | false;
  runId?: string;
  redis?: string;
  queue: string;
}

/** The tools a module exports: an array named `tools` or the default export, or every export made with defineTool. */
export async function loadTools(modulePath: string): Promise<Tool[]> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load tools from ${modulePath}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const isTool = (value: unknown): value is Tool =>
    typeof value === "object" && value !== null && "inputSchema" in value && "name" in value;
  const listed = [exports.tools, exports.default].find(Array.isArray) as unknown[] | undefined;
  const tools = (listed ?? Object.values(exports)).filter(isTool);
  if (tools.length === 0) throw new CliError(`${modulePath} exports no tools: export an array \`tools\` of tools made with defineTool`);
  return tools;
}
