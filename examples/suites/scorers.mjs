// Scorers for the example suites (planloop bench --scorers ./scorers.mjs).
import { planScorecard } from "planloop/evals";

/** Every call of the gold plan was made (tool and arguments): the share of them found. */
export function callsMatch({ task, result }) {
  return planScorecard(task.plan, result).calls.recall;
}
