import { InvalidOptionsError } from "../core/errors.js";
import { readSavedState } from "../core/saved-state.js";
import type { UsageTotals } from "../core/usage.js";
import type { PlanRunState } from "../executor/plan-state.js";
import type { Plan } from "../planner/plan-schema.js";

const stateKind = "planloop/plan-and-execute-state";
const stateVersion = 1;

/**
 * A Plan-and-Execute run paused for a human: its plans so far, its replans, and the paused
 * execution. Plain JSON; pass it back as `planAndExecute({ ...options, resume, approvals })`.
 */
export interface PlanAndExecuteState {
  kind: typeof stateKind;
  version: typeof stateVersion;
  planVersions: Plan[];
  replans: number;
  acknowledged: string[];
  execution: PlanRunState;
  usage: UsageTotals;
  elapsedMs: number;
}

export function createPlanAndExecuteState(fields: Omit<PlanAndExecuteState, "kind" | "version">): PlanAndExecuteState {
  return { kind: stateKind, version: stateVersion, ...fields };
}

export function readPlanAndExecuteState(value: unknown): PlanAndExecuteState {
  const state = readSavedState<PlanAndExecuteState>(value, { kind: stateKind, version: stateVersion, what: "planAndExecute" });
  if (!Array.isArray(state.planVersions) || state.planVersions.length === 0 || typeof state.execution !== "object") {
    throw new InvalidOptionsError("resume state is damaged: the plans or the paused execution are missing");
  }
  return state as PlanAndExecuteState;
}
