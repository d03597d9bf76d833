import { InvalidOptionsError } from "../core/errors.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import {
  editedPlanError,
  pendingPlan,
  planChanges,
  readPlanDecision,
  type PendingPlan,
  type PlanReviewContext,
  type ReadDecision,
  type ReviewPlanOption,
} from "./plan-review.js";
import type { Plan } from "../plan/plan-schema.js";
import type { StrategyRun } from "./strategy-run.js";

/** What a review of a new plan version came to. */
export type ReviewOutcome = ReadDecision | { kind: "waiting"; pending: PendingPlan };

/** What the planning loop asks of a review. */
export interface PlanReviewing {
  review(checked: CheckedPlan, at: { version: number; previous: Plan | undefined; reason: string | undefined }): Promise<ReviewOutcome>;
}

/**
 * The review of each new plan version, or undefined when the run has none. `approvals`: the
 * decisions given with this call; those under a plan's id (`plan:<v>`) are taken here, once.
 * A durable run keeps every decision in its journal before acting on it, so a restarted run
 * reads it back instead of asking (a human, or the reviewer function) again.
 */
export function planReviewing(
  run: StrategyRun,
  setup: { option: ReviewPlanOption; tools: readonly Tool[]; approvals: Record<string, unknown> | undefined },
): PlanReviewing | undefined {
  const { option, tools } = setup;
  if (option === undefined || option === false) return undefined;
  if (option !== true && typeof option !== "function") throw new InvalidOptionsError("reviewPlan must be true, false or a function");
  const given = new Map(Object.entries(setup.approvals ?? {}).filter(([key]) => isPlanReviewKey(key)));
  return {
    async review(checked, at) {
      const changes = planChanges(at.previous, checked.plan);
      const context: PlanReviewContext = { task: run.task, version: at.version, previous: at.previous, changes, reason: at.reason };
      if (at.previous !== undefined && changes.added.length === 0 && changes.changed.length === 0) {
        run.events.emit({ type: "plan-review", version: at.version, decision: "unchanged" });
        return { kind: "approved", checked };
      }
      const pending = pendingPlan(checked, context);
      let decision = run.durability?.keptReview(pending.id);
      const kept = decision !== undefined;
      if (!kept && typeof option === "function") decision = await option(checked.plan, context);
      else if (!kept && given.has(pending.id)) {
        decision = given.get(pending.id);
        given.delete(pending.id);
      }
      if (decision === undefined) {
        const other = [...given.keys()];
        if (other.length > 0)
          throw new InvalidOptionsError(
            `${other.join(", ")} ${other.length === 1 ? "is" : "are"} not waiting for review; ${pending.id} is`,
          );
        run.events.emit({ type: "plan-review", version: at.version, decision: "waiting" });
        return { kind: "waiting", pending };
      }
      const read = readPlanDecision(decision, pending, { checked, tools });
      if (read.kind === "invalid" && option === true) throw editedPlanError(pending, read.errors);
      if (!kept) await run.durability?.keepReview(pending.id, decision);
      run.events.emit({
        type: "plan-review",
        version: at.version,
        decision: read.kind === "rejected" ? "rejected" : read.kind === "invalid" || read.checked !== checked ? "edited" : "approved",
        ...(read.kind === "rejected" ? { feedback: read.feedback } : {}),
      });
      return read;
    },
  };
}

/** Decisions under these keys are plan reviews, never a call's approval. */
export function isPlanReviewKey(key: string): boolean {
  return /^plan:\d+$/.test(key);
}
