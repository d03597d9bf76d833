import type { Command } from "commander";
import { validatePlan } from "../../plan/validate-plan.js";
import { readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { toolsModuleShape } from "../tools-shape.js";

/** `planloop validate`: checks a plan without loading the executor, a store or a model. */
export function validateCommand(program: Command, io: CliIo): void {
  program
    .command("validate")
    .argument("<plan.json>", "the plan: { steps: [{ id, task, depends_on, tool?, args? }] }")
    .option("--tools <module>", `${toolsModuleShape}, to check tool names and arguments`)
    .action(async (path: string, flags: { tools?: string }) => {
      const plan = readJsonFile(path, "plan");
      // The tools module, and what loads it, only when asked for.
      const tools = flags.tools ? await (await import("../load-tools.js")).loadTools(flags.tools) : undefined;
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
}
