import type { BudgetLimit } from "../core/budget.js";
import type { StepStatus } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";
import type { PlanPendingCall, PlanRunState, StepRecord } from "./resume-state.js";
import type { TimelineEntry } from "../plan/timeline.js";

export type { StepStatus, StepRecord, PlanPendingCall };

export type PlanRunStatus = "completed" | "failed" | "cancelled" | "deadline_exceeded" | "budget_exceeded" | "waiting";

/** Every field a plan run's result may have; `PlanRunResult` says which ones each status has. */
export interface PlanRunResultFields {
  status: PlanRunStatus;
  /** The run's id: pass it again with the same `store` to continue it, or to read its result. */
  runId: string;
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
  /** The wait steps a `waiting` run waits on: a time, or an event (send it with `sendEvent`). */
  waits?: PlanWait[];
  /**
   * Optional steps (`optional: true`) that failed: the run went on without their results,
   * and the steps after them were shown those results as missing.
   */
  missing?: Array<string | number>;
  /** For every status but `completed`: pass back as `resume` to continue. JSON-safe. */
  state?: PlanRunState;
}

/**
 * A wait step a run waits on (times as ISO strings): `wakeDueRuns` continues the run when it is
 * due. A poll step waits as a timer for its next call, with the calls it made so far (`polls`).
 */
export type PlanWait =
  | { stepId: string | number; kind: "timer"; until: string; polls?: number }
  | { stepId: string | number; kind: "event"; event: string; match?: Record<string, unknown>; deadline?: string };

/**
 * How a plan run ended, discriminated by `status`: every status but `completed` has a
 * `reason` and a `state` to resume from, `waiting` lists what is `pending`, and the budget
 * stops name their `limit`.
 */
export type PlanRunResult =
  | (PlanRunResultFields & { status: "completed" })
  | (PlanRunResultFields & { status: "waiting"; reason: string; pending: PlanPendingCall[]; state: PlanRunState })
  | (PlanRunResultFields & { status: "budget_exceeded" | "deadline_exceeded"; reason: string; limit: BudgetLimit; state: PlanRunState })
  | (PlanRunResultFields & { status: "failed" | "cancelled"; reason: string; state: PlanRunState });
