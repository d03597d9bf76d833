import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { isElapsedMs, isUsageTotals, readSavedState } from "../core/saved-state.js";
import type { StepRecord } from "../plan/step-record.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";

export type { StepRecord };
import type { AgentState } from "../react/agent-state.js";
import type { PendingCall } from "../react/agent-status.js";

/** A call a plan run paused on, with the step it belongs to. Approve it by `callId`. */
export interface PlanPendingCall extends PendingCall {
  stepId: string | number;
}

const stateKind = "planloop/plan-state";
const stateVersion = 1;

/** A step paused for a human: a tool call awaiting approval, or an inner agent that waits. */
export type WaitingStep =
  { kind: "tool"; pending: PlanPendingCall } | { kind: "agent"; pending: PlanPendingCall[]; agentState: AgentState };

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
  const state = readSavedState<PlanRunState>(value, { kind: stateKind, version: stateVersion, what: "executePlan" });
  if (!isRecord(state.steps) || !isRecord(state.waiting) || !isUsageTotals(state.usage) || !isElapsedMs(state.elapsedMs)) {
    throw new InvalidOptionsError("resume state is damaged: steps, waiting, usage or elapsedMs are missing or malformed");
  }
  return state as PlanRunState;
}
