import { canonicalJson } from "../core/canonical-json.js";
import type { StepRecord } from "../executor/plan-state.js";
import { stepKey, type Plan, type PlanStep } from "../planner/plan-schema.js";

/**
 * Which results of the old plan the new plan can keep: a step that succeeded, has the same
 * id in the new plan, is unchanged (same tool and arguments; for an agent step, the same
 * task), and whose dependencies are all kept as well. Pure.
 */
export function reusableResults(oldPlan: Plan, records: Record<string, StepRecord>, newPlan: Plan): Record<string, StepRecord> {
  const oldSteps = new Map(oldPlan.steps.map((step) => [stepKey(step.id), step]));
  const kept: Record<string, StepRecord> = {};
  const decided = new Map<string, boolean>();
  const newSteps = new Map(newPlan.steps.map((step) => [stepKey(step.id), step]));

  const keep = (key: string, visiting: Set<string>): boolean => {
    const known = decided.get(key);
    if (known !== undefined) return known;
    const step = newSteps.get(key);
    const before = oldSteps.get(key);
    const record = records[key];
    let ok = step !== undefined && before !== undefined && record?.status === "succeeded" && unchanged(before, step) && !visiting.has(key);
    if (ok) {
      visiting.add(key);
      ok = step!.depends_on.every((dependency) => keep(stepKey(dependency), visiting));
      visiting.delete(key);
    }
    decided.set(key, ok);
    if (ok) kept[key] = record!;
    return ok;
  };
  for (const key of newSteps.keys()) keep(key, new Set());
  return kept;
}

function unchanged(before: PlanStep, after: PlanStep): boolean {
  const sameDependencies = canonicalJson([...before.depends_on].map(stepKey).sort()) === canonicalJson([...after.depends_on].map(stepKey).sort());
  if (!sameDependencies || before.tool !== after.tool) return false;
  if (after.tool !== undefined) return canonicalJson(before.args ?? {}) === canonicalJson(after.args ?? {});
  return before.task.trim() === after.task.trim();
}
