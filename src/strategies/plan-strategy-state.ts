import { cappedList, InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { isElapsedMs, isUsageTotals, readSavedState } from "../core/saved-state.js";
import type { UsageTotals } from "../core/usage.js";
import type { PlanRunState, StepRecord } from "../executor/resume-state.js";
import { planDigest, type PendingPlan } from "./plan-review.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { Plan } from "../plan/plan-schema.js";
import { validatePlan } from "../plan/validate-plan.js";

/** The strategies that plan, each of which can pause for a human and be resumed. */
export type PlanningStrategyName = "plan-and-execute" | "rewoo" | "llm-compiler";

const stateVersion = 1;

/**
 * A planning strategy's run paused for a human: its plans so far, its replans, and the
 * paused execution. Plain JSON; pass it back as `resume` (with `approvals` or `answers`) to
 * the strategy that wrote it.
 */
export interface PlanStrategyState<Strategy extends PlanningStrategyName = PlanningStrategyName> {
  kind: `planloop/${Strategy}-state`;
  version: typeof stateVersion;
  planVersions: Plan[];
  replans: number;
  acknowledged: string[];
  /** The paused execution; absent when the run waits for a plan review. */
  execution?: PlanRunState;
  /** The plan that waits for review, and the plan run before it (for the results it may keep). */
  review?: PlanReviewState;
  usage: UsageTotals;
  elapsedMs: number;
}

/** A run waiting for its plan's review: the plan, and what ran before it. */
export interface PlanReviewState {
  pending: PendingPlan;
  previous?: { plan: Plan; steps: Record<string, StepRecord> };
}

export type PlanAndExecuteState = PlanStrategyState<"plan-and-execute">;
export type RewooState = PlanStrategyState<"rewoo">;
export type LlmCompilerState = PlanStrategyState<"llm-compiler">;

type StateFields = Omit<PlanStrategyState, "kind" | "version">;

export function createPlanStrategyState<Strategy extends PlanningStrategyName>(
  strategy: Strategy,
  fields: StateFields,
): PlanStrategyState<Strategy> {
  return { kind: `planloop/${strategy}-state`, version: stateVersion, ...fields };
}

/**
 * Checks a state handed back as `resume`: its kind (the strategy that wrote it), version and
 * parts, and that its paused plan still fits the `tools` given (a tool renamed or left out
 * since the run paused is named in the error).
 */
export function readPlanStrategyState<Strategy extends PlanningStrategyName>(
  strategy: Strategy,
  value: unknown,
  tools: readonly Tool[],
): PlanStrategyState<Strategy> {
  const state = readSavedState<PlanStrategyState<Strategy>>(value, {
    kind: `planloop/${strategy}-state`,
    version: stateVersion,
    what: strategyFunction[strategy],
  });
  const execution = state.execution as unknown;
  const review = state.review as unknown;
  const whole =
    Array.isArray(state.planVersions) &&
    (state.planVersions.length > 0 || review !== undefined) &&
    Number.isInteger(state.replans) &&
    state.replans! >= 0 &&
    Array.isArray(state.acknowledged) &&
    isUsageTotals(state.usage) &&
    isElapsedMs(state.elapsedMs);
  const pending = isRecord(review) && isRecord(review.pending) ? (review.pending as Partial<PendingPlan>) : undefined;
  const paused = isRecord(execution) && isRecord(execution.plan) ? execution.plan : pending?.plan;
  if (!whole || paused === undefined || (review !== undefined && pending === undefined)) {
    throw new InvalidOptionsError(
      "resume state is damaged: its plans, replans, paused execution or plan review, usage or elapsedMs are missing or malformed",
    );
  }
  if (
    pending !== undefined &&
    (!isRecord(pending.plan) || pending.digest !== planDigest(pending.plan as Plan) || typeof pending.id !== "string")
  ) {
    throw new InvalidOptionsError(
      `resume: the saved state was changed after it paused: the plan waiting for review is no longer the plan that was shown; start from an unchanged state`,
    );
  }
  const checked = validatePlan(paused, { tools });
  if (!checked.ok) {
    const problems = cappedList(
      checked.errors.map((error) => error.message),
      (count) => `and ${count} more`,
    ).join("; ");
    throw new InvalidOptionsError(
      `resume: the paused plan does not fit the tools given; pass the tools the run started with (${problems})`,
    );
  }
  return state as PlanStrategyState<Strategy>;
}

const strategyFunction: Record<PlanningStrategyName, string> = {
  "plan-and-execute": "planAndExecute",
  rewoo: "rewoo",
  "llm-compiler": "llmCompiler",
};
