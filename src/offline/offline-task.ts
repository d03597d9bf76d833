import type { PlanInput } from "../plan/plan-schema.js";

type StepInput = PlanInput["steps"][number];

/**
 * A task the offline model knows how to solve: how to recognise it, the tool steps that
 * solve it (numbered ids from 1, `$1` / `"$1.path"` for earlier results), an optional
 * replan for when something goes wrong, and how to answer from the steps' outputs.
 */
export interface OfflineTask {
  name: string;
  /** Recognises the task in the user's text. */
  match: RegExp | string;
  plan: StepInput[];
  /** Given what went wrong, the whole new plan (keep unchanged steps as they were). */
  replan?: (problem: string) => StepInput[] | undefined;
  /** The final answer from the outputs of the steps, by step id. */
  answer: (outputs: Record<string, unknown>) => string;
}

export function recognise(tasks: readonly OfflineTask[], text: string): OfflineTask | undefined {
  return tasks.find((task) => (typeof task.match === "string" ? text.includes(task.match) : task.match.test(text)));
}
