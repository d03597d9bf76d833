import { previewOf } from "../core/tools/tool-output.js";
import type { PlanStep } from "../planner/plan-schema.js";

/** Characters of each dependency's output shown to an agent step. */
export const dependencyOutputChars = 4_000;

/**
 * The first message of an agent step: its task, and the outputs of the steps it depends on.
 * (Prompts of the planner, solver and critic will live beside this one.)
 */
export function agentStepPrompt(step: PlanStep, dependencies: ReadonlyArray<{ step: PlanStep; output: unknown }>): string {
  const lines = [`You are carrying out step ${step.id} of a larger plan.`, `Step ${step.id}: ${step.task}`];
  if (dependencies.length > 0) {
    lines.push("", "Results of the steps it depends on:");
    for (const dependency of dependencies) {
      lines.push(`- Step ${dependency.step.id} (${dependency.step.task}):`, previewOf(dependency.output, dependencyOutputChars));
    }
  }
  lines.push("", "Do this step only. Use the tools if you need them, then answer with the step's result.");
  return lines.join("\n");
}
