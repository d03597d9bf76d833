import { z } from "zod";

const stepIdSchema = z.union([z.string().min(1), z.number().int().nonnegative()]);

export const planStepSchema = z.object({
  id: stepIdSchema,
  /** What the step does: the prompt of an agent step, a label for a tool step. */
  task: z.string(),
  /** Steps that must succeed first; `[]` (or omitted) means none. */
  depends_on: z.array(stepIdSchema).default([]),
  /** A tool step calls this tool directly; a step without one is run by an inner agent. */
  tool: z.string().min(1).optional(),
  /** The tool's arguments; may hold placeholders (`#E1`, `$1`, `${1}`) for earlier outputs. */
  args: z.unknown().optional(),
  /** An agent step's own limits. */
  budget: z.object({ maxSteps: z.number().int().positive().optional() }).optional(),
  /** Expected duration, used to start the longest remaining path first. */
  estimateMs: z.number().nonnegative().optional(),
  /** An agent step's model, by its name in the run's `models` (a tier like "fast" or "strong"). */
  model: z.string().min(1).optional(),
});

export const planSchema = z.object({ steps: z.array(planStepSchema).min(1) });

export type StepId = z.infer<typeof stepIdSchema>;
export type PlanStep = z.output<typeof planStepSchema>;
/** A plan as the planner or the caller writes it (`depends_on` may be omitted). */
export type PlanInput = z.input<typeof planSchema>;
export type Plan = z.output<typeof planSchema>;

/** Step ids are compared as text: a planner's `"1"` and `1` name the same step. */
export function stepKey(id: StepId): string {
  return String(id);
}
