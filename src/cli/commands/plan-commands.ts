import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import type { Tool } from "../../core/tools/define-tool.js";
import { executePlan } from "../../executor/execute-plan.js";
import type { ExecutePlanOptions } from "../../executor/plan-options.js";
import type { PlanRunState } from "../../executor/plan-state.js";
import type { ApprovalDecision } from "../../react/agent-options.js";
import { validatePlan } from "../../planner/validate-plan.js";
import { CliError, readJsonFile } from "../cli-error.js";
import { pendingLine } from "../pending-calls.js";
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
        io.out(`valid: ${checked.plan.steps.length} steps`);
        return;
      }
      for (const error of checked.errors) io.out(`- ${error.message}`);
      io.exitCode(1);
    });

  program
    .command("run")
    .description("Execute a fixed plan with the tools a module exports; a run that waits for a human saves its state")
    .argument("<plan.json>", "the plan to run")
    .requiredOption("--tools <module>", "a JavaScript module exporting the tools (an array `tools`, or tools as named exports)")
    .option("--concurrency <n>", "steps running at once", "4")
    .option("--json", "print the whole result as JSON")
    .option("--state <file>", "where a waiting run saves its state (default: <plan>.state.json)")
    .option("--resume <file>", "continue the waiting run saved in this state file")
    .option("--approve <callIds...>", "approve these pending calls (with --resume)")
    .option("--deny <callIds...>", "deny these pending calls (with --resume)")
    .option("--answer <callId=text...>", "answer these pending questions (with --resume)")
    .action(async (path: string, flags: RunFlags) => {
      const plan = readJsonFile(path, "plan");
      const tools = await loadTools(flags.tools);
      const checked = validatePlan(plan, { tools });
      if (!checked.ok) throw new CliError(`the plan is invalid: ${checked.errors.map((error) => error.message).join("; ")}`);
      const concurrency = Number(flags.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError("--concurrency must be a whole number >= 1");
      const progress = createProgress(io.stdout);
      const result = await executePlan({ plan: checked.plan, tools, concurrency, onEvent: progress.listener, ...resumeOptions(flags) });
      progress.stop();
      if (flags.json) io.out(JSON.stringify(result, null, 2));
      else io.out(`${result.status}${result.reason ? `: ${result.reason}` : ""}`);
      if (result.status === "waiting" && result.state) {
        const statePath = resolve(flags.state ?? path.replace(/(\.json)?$/i, ".state.json"));
        writeFileSync(statePath, JSON.stringify(result.state));
        for (const call of result.pending ?? []) io.out(pendingLine(call));
        const first = result.pending?.[0]?.callId ?? "<callId>";
        io.out(`state: ${statePath}\nresume: planloop run ${path} --tools ${flags.tools} --resume ${statePath} --approve ${first}`);
      }
      io.exitCode(result.status === "completed" ? 0 : result.status === "waiting" ? 3 : 1);
    });
}

interface RunFlags {
  tools: string;
  concurrency: string;
  json?: boolean;
  state?: string;
  resume?: string;
  approve?: string[];
  deny?: string[];
  answer?: string[];
}

/** `resume`, `approvals` and `answers` for executePlan from the command line. */
function resumeOptions(flags: RunFlags): Pick<ExecutePlanOptions, "resume" | "approvals" | "answers"> {
  const decided = [...(flags.approve ?? []), ...(flags.deny ?? []), ...(flags.answer ?? [])];
  if (!flags.resume) {
    if (decided.length > 0) throw new CliError("--approve, --deny and --answer go with --resume <state file>");
    return {};
  }
  const approvals: Record<string, ApprovalDecision> = {};
  for (const callId of flags.approve ?? []) approvals[callId] = { approved: true };
  for (const callId of flags.deny ?? []) approvals[callId] = { approved: false, reason: "denied on the command line" };
  const answers: Record<string, string> = {};
  for (const entry of flags.answer ?? []) {
    const split = entry.indexOf("=");
    if (split <= 0) throw new CliError(`--answer takes callId=text, got "${entry}"`);
    answers[entry.slice(0, split)] = entry.slice(split + 1);
  }
  return { resume: readJsonFile(flags.resume, "state") as PlanRunState, approvals, answers };
}

/** The tools a module exports: an array named `tools` or the default export, or every export made with defineTool. */
export async function loadTools(modulePath: string): Promise<Tool[]> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load tools from ${modulePath}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const isTool = (value: unknown): value is Tool => typeof value === "object" && value !== null && "inputSchema" in value && "name" in value;
  const listed = [exports.tools, exports.default].find(Array.isArray) as unknown[] | undefined;
  const tools = (listed ?? Object.values(exports)).filter(isTool);
  if (tools.length === 0) throw new CliError(`${modulePath} exports no tools: export an array \`tools\` of tools made with defineTool`);
  return tools;
}
