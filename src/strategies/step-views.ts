import { ownValue } from "../core/records.js";
import type { StepRecord } from "../plan/step-record.js";
import { stepKey, type Plan } from "../plan/plan-schema.js";
import type { StepView } from "../planner/prompts.js";

/**
 * The plan's steps with what happened to each, as prompts show them; a step without a
 * record shows `unfinished` ("not run" unless the run is still going).
 */
export function stepViews(plan: Plan, records: Record<string, StepRecord>, options: { unfinished?: string } = {}): StepView[] {
  return plan.steps.map((step) => {
    const record = ownValue(records, stepKey(step.id));
    const view: StepView = { id: step.id, task: step.task, status: record?.status ?? options.unfinished ?? "not run" };
    if (step.tool !== undefined) view.tool = step.tool;
    if (step.optional === true) view.optional = true;
    if (record?.status === "succeeded") view.output = record.output;
    if (record?.error !== undefined) view.error = record.error;
    return view;
  });
}
