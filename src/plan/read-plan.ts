import type { z } from "zod";
import { isRecord } from "../core/is-record.js";
import type { Plan, PlanStep, StepId, planSchema, planStepSchema } from "./plan-schema.js";
import { planSchemas } from "./plan-schema-registry.js";

type PlanParse = ReturnType<typeof planSchema.safeParse>;
type StepParse = ReturnType<typeof planStepSchema.safeParse>;

/**
 * `planSchema.safeParse`, with a plain-code reading of well-formed plans first. Zod spends
 * microseconds and over a kilobyte per step, which a 10,000-step plan of quick tools feels;
 * the quick reading builds exactly what zod would (known keys in the schema's order,
 * `depends_on` defaulted) and hands anything it is unsure of to zod, which also words the
 * errors. Kept because the growth line of bench:scheduler misses without it: with zod alone,
 * 10x steps cost 11.7-11.9x time on the chain and 12.5x on the text-id chain (target 12x),
 * with this reader 10.9-11.5x; a property test holds it to zod's output.
 */
export function readPlan(input: unknown): PlanParse {
  const quick = quickPlan(input);
  return quick ? { success: true, data: quick } : (planSchemas().plan.safeParse(input) as PlanParse);
}

/** `planStepSchema.safeParse` with the same quick path, for steps that arrive one by one. */
export function readPlanStep(input: unknown): StepParse {
  const quick = quickStep(input);
  return quick ? { success: true, data: quick } : (planSchemas().step.safeParse(input) as StepParse);
}

function quickPlan(input: unknown): Plan | undefined {
  if (!isRecord(input)) return undefined;
  const source = (input as { steps?: unknown }).steps;
  if (!Array.isArray(source) || source.length === 0) return undefined;
  const steps: PlanStep[] = new Array(source.length);
  for (let index = 0; index < source.length; index += 1) {
    const step = quickStep(source[index]);
    if (!step) return undefined;
    steps[index] = step;
  }
  return { steps };
}

function quickStep(input: unknown): PlanStep | undefined {
  if (!isRecord(input)) return undefined;
  const source = input as Record<string, unknown>;
  const { id, task, tool, args, budget, estimateMs, model, optional } = source;
  if (!isStepId(id) || typeof task !== "string") return undefined;
  // Wait steps are rare: zod reads them.
  if ("wait" in source || "waitFor" in source || "poll" in source) return undefined;
  const dependsOn = quickDependencies(source.depends_on);
  if (!dependsOn) return undefined;
  // Zod keeps a key given as `undefined`; rare enough to leave to zod.
  if (
    (tool === undefined && "tool" in source) ||
    (args === undefined && "args" in source) ||
    (budget === undefined && "budget" in source) ||
    (estimateMs === undefined && "estimateMs" in source) ||
    (model === undefined && "model" in source) ||
    (optional === undefined && "optional" in source)
  ) {
    return undefined;
  }
  if (tool !== undefined && (typeof tool !== "string" || tool.length === 0)) return undefined;
  if (model !== undefined && (typeof model !== "string" || model.length === 0)) return undefined;
  if (optional !== undefined && typeof optional !== "boolean") return undefined;
  if (estimateMs !== undefined && (typeof estimateMs !== "number" || !Number.isFinite(estimateMs) || estimateMs < 0)) return undefined;
  const stepBudget = budget === undefined ? undefined : quickBudget(budget);
  if (budget !== undefined && !stepBudget) return undefined;
  // The usual shapes are built whole: an object that grows key by key takes more memory.
  if (stepBudget === undefined && estimateMs === undefined && model === undefined && optional === undefined) {
    if (tool !== undefined && args !== undefined) return { id, task, depends_on: dependsOn, tool, args };
    if (tool === undefined && args === undefined) return { id, task, depends_on: dependsOn };
  }
  const step: PlanStep = { id, task, depends_on: dependsOn };
  if (tool !== undefined) step.tool = tool;
  if (args !== undefined) step.args = args;
  if (stepBudget !== undefined) step.budget = stepBudget;
  if (estimateMs !== undefined) step.estimateMs = estimateMs;
  if (model !== undefined) step.model = model;
  if (optional !== undefined) step.optional = optional;
  return step;
}

function quickDependencies(value: unknown): StepId[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const ids: StepId[] = new Array(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const id: unknown = value[index];
    if (!isStepId(id)) return undefined;
    ids[index] = id;
  }
  return ids;
}

function quickBudget(value: unknown): z.output<typeof planStepSchema>["budget"] {
  if (!isRecord(value)) return undefined;
  const maxSteps = (value as { maxSteps?: unknown }).maxSteps;
  if (maxSteps === undefined) return "maxSteps" in value ? undefined : {};
  return typeof maxSteps === "number" && Number.isSafeInteger(maxSteps) && maxSteps > 0 ? { maxSteps } : undefined;
}

function isStepId(value: unknown): value is StepId {
  return typeof value === "string" ? value.length > 0 : typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
