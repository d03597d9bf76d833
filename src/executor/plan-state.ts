import { InvalidOptionsError } from "../core/errors.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../planner/plan-schema.js";
import type { AgentState } from "../react/agent-state.js";
import type { PlanPendingCall, StepRecord } from "./plan-result.js";

const stateKind = "planloop/plan-state";
const stateVersion = 1;

/** A step paused for a human: a tool call awaiting approval, or an inner agent that waits. */
export type WaitingStep =
  | { kind: "tool"; pending: PlanPendingCall }
  | { kind: "agent"; pending: PlanPendingCall[]; agentState: AgentState };

/**
 * What `executePlan({ resume })` needs to continue a run: the finished steps' records
 * (never run again), the paused steps, and the counters. Plain JSON.
 */
export interface PlanRunState {
  kind: typeof stateKind;
  version: typeof stateVersion;
  plan: Plan;
  steps: Record<string, StepRecord>;
  waiting: Record<string, WaitingStep>;
  usage: UsageTotals;
  elapsedMs: number;
  toolCallCounts: Record<string, number>;
}

export function createPlanState(fields: Omit<PlanRunState, "kind" | "version">): PlanRunState {
  return { kind: stateKind, version: stateVersion, ...fields };
}

export function readPlanState(value: unknown): PlanRunState {
  const state = value as Partial<PlanRunState> | null;
  if (typeof state !== "object" || state === null || state.kind !== stateKind) {
    throw new InvalidOptionsError("resume is not a plan-run state; pass the state from an executePlan result");
  }
  if (state.version !== stateVersion) {
    throw new InvalidOptionsError(`resume state has version ${String(state.version)}; this planloop reads version ${stateVersion}`);
  }
  if (typeof state.steps !== "object" || typeof state.waiting !== "object" || typeof state.usage !== "object") {
    throw new InvalidOptionsError("resume state is damaged: steps, waiting or usage are missing");
  }
  return state as PlanRunState;
}
