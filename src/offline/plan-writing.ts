import type { PlanFormat } from "../planner/parsers/parse-plan.js";
import type { OfflineTask } from "./offline-task.js";

type Steps = OfflineTask["plan"];

/** The format a planning prompt asks for, from the instructions in its text. */
export function requestedFormat(prompt: string): PlanFormat {
  if (prompt.includes("#E<n> = <tool>[<input>]")) return "rewoo";
  if (prompt.includes("<n>. <tool>(<arguments>)")) return "llm-compiler";
  return "json";
}

/** The plan as a planner model would write it, in the requested format, one line per step where the format has lines. */
export function writePlan(steps: Steps, format: PlanFormat): string[] {
  if (format === "json") return [JSON.stringify({ steps: steps.map((step) => ({ depends_on: [], ...step })) }, null, 1)];
  if (format === "rewoo") {
    // Only references to steps of the plan become #E<n>: "$20-$30" in an argument is a price.
    const ids = new Set(steps.map((step) => String(step.id)));
    const reference = (match: string, id: string) => (ids.has(id) ? `#E${id}` : match);
    return steps.map(
      (step) =>
        `Plan: ${step.task}\n#E${step.id} = ${step.tool}[${JSON.stringify(step.args ?? {}).replace(/\$\{?(\d+)\}?/g, reference)}]\n`,
    );
  }
  const lines = steps.map((step) => {
    const args = Object.entries((step.args ?? {}) as Record<string, unknown>).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
    return `Thought: ${step.task}\n${step.id}. ${step.tool}(${args.join(", ")})\n`;
  });
  return [...lines, `${steps.length + 1}. join()\n`];
}
