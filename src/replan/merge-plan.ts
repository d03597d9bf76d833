import { canonicalJson } from "../core/canonical-json.js";
import type { StepRecord } from "../plan/step-record.js";
import { buildPlanGraph, topologicalOrder } from "../plan/graph/plan-graph.js";
import { stepKey, type Plan, type PlanStep } from "../plan/plan-schema.js";
import { ownValue, textKeyed } from "../core/records.js";

/**
 * Which results of the old plan the new plan can keep: a step that succeeded, has the same
 * id in the new plan, is unchanged (same tool and arguments; for an agent step, the same
 * task), and whose dependencies are all kept as well. Decided in the new plan's topological
 * order, without recursion, so a long chain listed last step first is no deeper than a
 * short one; steps on a cycle are never kept. Pure.
 */
export function reusableResults(oldPlan: Plan, records: Record<string, StepRecord>, newPlan: Plan): Record<string, StepRecord> {
  const oldSteps = new Map(oldPlan.steps.map((step) => [stepKey(step.id), step]));
  const graph = buildPlanGraph(newPlan);
  const keptAt = new Uint8Array(newPlan.steps.length);
  const kept = textKeyed<StepRecord>();
  for (const index of topologicalOrder(graph)) {
    const step = newPlan.steps[index]!;
    const key = graph.keys[index]!;
    const before = oldSteps.get(key);
    const record = ownValue(records, key);
    if (before === undefined || record?.status !== "succeeded" || !unchanged(before, step)) continue;
    // Every dependency it names must be a step of the new plan that is kept (not itself).
    const inputsKept = step.depends_on.every((dependency) => {
      const at = graph.indexOf.get(stepKey(dependency));
      return at !== undefined && keptAt[at] === 1;
    });
    if (!inputsKept) continue;
    keptAt[index] = 1;
    kept[key] = record;
  }
  return kept;
}

function unchanged(before: PlanStep, after: PlanStep): boolean {
  const sameDependencies =
    canonicalJson([...before.depends_on].map(stepKey).sort()) === canonicalJson([...after.depends_on].map(stepKey).sort());
  if (!sameDependencies || before.tool !== after.tool) return false;
  if (after.tool !== undefined) return canonicalJson(before.args ?? {}) === canonicalJson(after.args ?? {});
  return before.task.trim() === after.task.trim();
}
