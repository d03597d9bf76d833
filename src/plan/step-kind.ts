import type { PlanStep } from "./plan-schema.js";

/** What runs a step: its tool, a wait (`wait`, `waitFor`), or an inner agent (a step with neither). */
export function stepKind(step: Pick<PlanStep, "tool" | "wait" | "waitFor">): "tool" | "wait" | "agent" {
  return step.tool !== undefined ? "tool" : step.wait !== undefined || step.waitFor !== undefined ? "wait" : "agent";
}
