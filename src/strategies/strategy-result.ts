import type { BudgetLimit } from "../core/budget.js";
import type { PlanloopEvent } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import type { PlanPendingCall, StepRecord } from "../executor/resume-state.js";
import type { Plan } from "../plan/plan-schema.js";
import type { AgentState } from "../react/agent-state.js";
import type { AgentStatus, PendingCall } from "../react/agent-status.js";
import type { PlanStrategyState } from "./plan-strategy-state.js";
import type { PendingPlan } from "./plan-review.js";
import type { PlanRunStatus } from "../executor/execution-result.js";
import type { Provenance } from "../grounding/claim-report.js";
import type { CodeModeState } from "./code-mode/code-mode-state.js";

export type StrategyName = "react" | "plan-and-execute" | "rewoo" | "llm-compiler" | "code";

/** What a paused run hands back: ReAct's loop state, a planning strategy's, or code mode's. */
export type StrategyState = AgentState | PlanStrategyState | CodeModeState;

/** Why a strategy stopped: the loop's statuses and the executor's, in one union. */
export type StrategyStatus = AgentStatus | PlanRunStatus;

/**
 * What every strategy returns, so they can be compared on the same task: the answer, what
 * it cost, how long it took, and the whole event trace.
 */
export interface StrategyResultFields {
  strategy: StrategyName;
  /** The run's id: given, or generated. With a store, the same id continues the run or hands back this result. */
  runId: string;
  /** The `taskType` the run was given (see `suggestLimits`). */
  taskType?: string;
  status: StrategyStatus;
  output?: string;
  usage: UsageTotals;
  /** Wall time on the run's clock. */
  durationMs: number;
  /** ReAct: model steps. Planning strategies: plan steps that ran. */
  steps: number;
  replans: number;
  trace: PlanloopEvent[];
  reason?: string;
  limit?: BudgetLimit;
  /** For `waiting`: the calls a human must decide on (plan steps add their `stepId`), or the plan waiting for review. */
  pending?: Array<PendingCall | PendingPlan>;
  /** For `waiting`: pass it back as `resume`, with the decisions, to the same strategy. JSON-safe. */
  state?: StrategyState;
  /**
   * With an output: every sentence and figure, date and name of it, and whether the step
   * outputs support it (`grounding`, on by default as "flag"; see docs/grounded-reports.md).
   */
  provenance?: Provenance;
}

/** The planning strategies add the plans they went through and every step's record. */
export interface PlanStrategyResultFields<State extends PlanStrategyState = PlanStrategyState> extends StrategyResultFields {
  plan?: Plan;
  planVersions: Plan[];
  stepResults: Record<string, StepRecord>;
  /** Optional steps of the last plan that failed: the answer was made without their results. */
  missing?: Array<string | number>;
  pending?: Array<PlanPendingCall | PendingPlan>;
  /** Plan validation errors, when no valid plan could be made. */
  errors?: string[];
  /** For `waiting`: pass it back as `resume`, with the approvals, to the same strategy. JSON-safe. */
  state?: State;
}

/**
 * A strategy's fields narrowed by `status`: `completed` has its `output`; `waiting` has what
 * is `pending` and the `state` to resume with.
 */
export type ByStatus<Fields extends StrategyResultFields> =
  | (Fields & { status: "completed"; output: string })
  | (Fields & { status: "waiting"; pending: NonNullable<Fields["pending"]>; state: NonNullable<Fields["state"]> })
  | (Fields & { status: Exclude<StrategyStatus, "completed" | "waiting"> });

/** What every strategy returns, discriminated by `status` (see `ByStatus`). */
export type StrategyResult = ByStatus<StrategyResultFields>;

/** What a planning strategy returns, discriminated by `status` (see `ByStatus`). */
export type PlanStrategyResult<State extends PlanStrategyState = PlanStrategyState> = ByStatus<PlanStrategyResultFields<State>>;
