import type { PlanInput } from "../plan/plan-schema.js";
import type { BenchFacts } from "./bench-facts.js";

export type SuiteName = "fanout" | "chain" | "replan";

/** One benchmark question: its expected answer and the plan an ideal planner would write. */
export interface BenchTask {
  id: string;
  suite: SuiteName;
  question: string;
  /** A number (compared within 0.05) or a name (compared without case). */
  expected: number | string;
  /** Lookups the question needs; for fan-out, its width. */
  width: number;
  plan: PlanInput["steps"];
  /** For the replan suite: the plan once the failure is known. */
  replanned?: PlanInput["steps"];
  /** Where the answer is: a field of one step's output. */
  answerFrom: { step: number; field: string };
}

export interface BenchSuite {
  name: SuiteName;
  seed: number;
  description: string;
  facts: BenchFacts;
  /** Cities the main facts service has no data for (the replan suite's surprise). */
  unavailable: string[];
  tasks: BenchTask[];
}

/** Whether an answer matches the expected one: the first number in it, or the name. */
export function answerMatches(answer: string | undefined, expected: number | string): boolean {
  if (answer === undefined) return false;
  if (typeof expected === "number") {
    const found = /-?\d+(?:\.\d+)?/.exec(answer.replace(/,/g, ""));
    return found !== null && Math.abs(Number(found[0]) - expected) <= 0.05;
  }
  return answer.toLowerCase().includes(expected.toLowerCase());
}
