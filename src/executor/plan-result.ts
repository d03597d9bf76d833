import type { BudgetLimit } from "../core/budget.js";
import type { StepStatus } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../planner/plan-schema.js";
import type { PendingCall } from "../react/agent-result.js";
import type { PlanRunState } from "./plan-state.js";
import type { TimelineEntry } from "./timeline.js";

export type { StepStatus };

export type PlanRunStatus = "completed" | "failed" | "cancelled" | "deadline_exceeded" | "budget_exceeded" | "waiting";

/** What happened to one step. Times are milliseconds since the run started. */
export interface StepRecord {
  status: StepStatus;
  output?: unknown;
  /** Why the step failed, was skipped, cancelled, or is waiting. */
  error?: string;
  attempts: number;
  startedAt?: number;
  endedAt?: number;
}

/** A call a plan run paused on, with the step it belongs to. Approve it by `callId`. */
export interface PlanPendingCall extends PendingCall {
  stepId: string | number;
}

export interface PlanRunResult {
  status: PlanRunStatus;
  /** The output of the plan's final step, or `{ [id]: output }` when it has several. */
  output?: unknown;
  plan: Plan;
  /** Every version of the plan the run went through, the first one included. */
  planVersions: Plan[];
  steps: Record<string, StepRecord>;
  usage: UsageTotals;
  replans: number;
  /** Bars for a Gantt chart of the run. */
  timeline: TimelineEntry[];
  reason?: string;
  limit?: BudgetLimit;
  pending?: PlanPendingCall[];
  /** For every status but `completed`: pass back as `resume` to continue. JSON-safe. */
  state?: PlanRunState;
}
