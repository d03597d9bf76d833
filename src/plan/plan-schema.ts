import { z } from "zod";
import { definePlanSchemas } from "./plan-schema-definition.js";
import { registerPlanSchemas } from "./plan-schema-registry.js";

const defined = definePlanSchemas(z);
registerPlanSchemas(defined);

/** A step of a plan, as zod reads it. */
export const planStepSchema = defined.step;

export const planSchema = defined.plan;

export type StepId = z.infer<typeof defined.stepId>;
export type PlanStep = z.output<typeof planStepSchema>;
/** A plan as the planner or the caller writes it (`depends_on` may be omitted). */
export type PlanInput = z.input<typeof planSchema>;
export type Plan = z.output<typeof planSchema>;

export { stepKey } from "./step-key.js";
