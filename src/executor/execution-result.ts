import type { BudgetLimit } from "../core/budget.js";
import type { StepStatus } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";
import type { PlanPendingCall, PlanRunState, StepRecord } from "./resume-state.js";
import type { TimelineEntry } from "./timeline.js";

export type { StepStatus, StepRecord, PlanPendingCall };

export type PlanRunStatus = "completed" | "failed" | "cancelled" | "deadline_exceeded" | "budget_exceeded" | "waiting";

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
  /** Steps whose output contradicted the plan or brought news (tool `check`, `observe`). */
  replanRequests: Array<{ stepId: string | number; reason: string }>;
  /** Bars for a Gantt chart of the run. */
  timeline: TimelineEntry[];
  reason?: string;
  limit?: BudgetLimit;
  pending?: PlanPendingCall[];
  /** For every status but `completed`: pass back as `resume` to continue. JSON-safe. */
  state?: PlanRunState;
}
