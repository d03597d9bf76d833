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
  /**
   * The plan's agent steps (steps without a tool), as the offline model answers them when it
   * runs one: recognised by the step's task in the agent-step prompt, answered from that
   * prompt (which holds the results of the steps it depends on).
   */
  agentSteps?: ReadonlyArray<{ match: RegExp; answer: (prompt: string) => string }>;
}

/** The answer to an agent step's prompt, if one of the tasks has that step. */
export function agentStepAnswer(tasks: readonly OfflineTask[], prompt: string): string | undefined {
  for (const task of tasks) for (const step of task.agentSteps ?? []) if (step.match.test(prompt)) return step.answer(prompt);
  return undefined;
}

export function recognise(tasks: readonly OfflineTask[], text: string): OfflineTask | undefined {
  return tasks.find((task) => (typeof task.match === "string" ? text.includes(task.match) : task.match.test(text)));
}
