import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import { cappedList } from "../../core/errors.js";
import type { PlanloopEvent } from "../../core/events.js";
import { previewOf } from "../../core/tools/tool-output.js";
import type { Tool } from "../../core/tools/define-tool.js";
import { executePlan } from "../../executor/execute-plan.js";
import type { ExecutePlanOptions } from "../../executor/execution-options.js";
import { validatePlan } from "../../plan/validate-plan.js";
import { CliError, readJsonFile } from "../cli-error.js";
import { pauseOptions, resumeFromFlags, savePaused, settleResumedFile, statePathOf, type PauseFlags } from "../pause-resume.js";
import { onInterrupt } from "../interrupt.js";
import { defaultStore, openStore, storeFlag } from "../store-option.js";
import { recordLaunch } from "../stored-runs.js";
import { bullmqRunner } from "../../workers/bullmq-runner.js";
import { createProgress } from "../progress.js";
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
  pauseOptions(run, "<plan>.state.json").action(async (path: string, flags: RunFlags) => {
    const plan = readJsonFile(path, "plan");
    const tools = await loadTools(flags.tools);
    const checked = validatePlan(plan, { tools });
    if (!checked.ok) {
      throw new CliError(
        `the plan is invalid: ${cappedList(
          checked.errors.map((error) => error.message),
          (count) => `and ${count} more`,
        ).join("; ")}`,
      );
    }
    const concurrency = Number(flags.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError("--concurrency must be a whole number >= 1");
    const { finished, ...resumed } = resumeFromFlags(flags) as Pick<ExecutePlanOptions, "resume" | "approvals" | "answers"> & {
      finished?: string;
    };
    if (finished !== undefined) {
      io.out(finished);
      return;
    }
    // With --json, stdout is the result alone (for `| jq`): progress goes to stderr.
    const progress = createProgress(flags.json ? io.stderr : io.stdout);
    const events: PlanloopEvent[] = [];
    const onEvent = (event: PlanloopEvent) => {
      events.push(event);
      progress.listener(event);
    };
    const interrupt = onInterrupt();
    const runner = flags.redis === undefined ? undefined : bullmqRunner({ connection: flags.redis, queue: flags.queue });
    const store = flags.store === false ? undefined : await openStore(flags.store);
    const runId =
      store === undefined
        ? flags.runId
        : await recordLaunch(store, {
            runId: flags.runId,
            entry: "executePlan",
            argv: [
              "run",
              resolve(path),
              "--tools",
              resolve(flags.tools),
              "--concurrency",
              flags.concurrency,
              ...(flags.redis === undefined ? [] : ["--redis", flags.redis, "--queue", flags.queue]),
            ],
          });
    const result = await executePlan({
      plan: checked.plan,
      tools,
      concurrency,
      onEvent,
      signal: interrupt.signal,
      store,
      runId,
      runner,
      ...resumed,
    }).finally(() => {
      interrupt.dispose();
      void store?.close();
      void runner?.close();
    });
    // With --json, stdout is the result alone.
    if (store) (flags.json ? io.err : io.out)(`run ${result.runId} (planloop runs show ${result.runId}${storeFlag(flags.store)})`);
    progress.stop();
    settleResumedFile(flags, result);
    if (flags.json) io.out(JSON.stringify(result, null, 2));
    else io.out(`${result.status}${result.reason ? `: ${result.reason}` : ""}`);
    if (!flags.json && result.status === "completed") io.out(`output: ${previewOf(result.output, 2_000)}`);
    if (flags.events) writeFileSync(flags.events, events.map((event) => JSON.stringify(event)).join("\n") + "\n");
    if ((result.status === "waiting" || interrupt.interrupted()) && result.state) {
      const statePath = statePathOf(flags, path.replace(/(\.json)?$/i, ".state.json"));
      savePaused(io, {
        state: result.state,
        pending: result.pending ?? [],
        statePath,
        command: `planloop run ${path} --tools ${flags.tools}`,
        ...(store ? { runId: result.runId, storeFlag: storeFlag(flags.store) } : {}),
      });
    }
    io.exitCode(interrupt.interrupted() ? 130 : result.status === "completed" ? 0 : result.status === "waiting" ? 3 : 1);
  });
}

interface RunFlags extends PauseFlags {
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
