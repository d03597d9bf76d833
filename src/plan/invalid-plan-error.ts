import { cappedList, PlanloopError } from "../core/errors.js";
import type { PlanError } from "./validate-plan.js";

/** The plan failed validation: misuse of `executePlan`, with every problem listed. */
export class InvalidPlanError extends PlanloopError {
  readonly errors: PlanError[];

  constructor(errors: PlanError[]) {
    const lines = cappedList(
      errors.map((error) => `- ${error.message}`),
      (count) => `- and ${count} more (see the error's \`errors\`)`,
    );
    super(`the plan is invalid:\n${lines.join("\n")}`);
    this.name = "InvalidPlanError";
    this.errors = errors;
  }
}
