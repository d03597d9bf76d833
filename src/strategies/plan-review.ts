import { createHash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import { cappedList, InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import type { Tool } from "../core/tools/define-tool.js";
import { stepKey, type Plan, type PlanInput, type PlanStep } from "../plan/plan-schema.js";
import { checkPlan, type CheckedPlan } from "../plan/validate-plan.js";

/**
 * A review of a plan before it runs: approve it, reject it with feedback (the planner writes
 * a new plan that answers it), or approve an edited plan instead (checked like any plan).
 * A human gives it in `approvals` under the pending plan's id; a reviewer function returns it.
 */
export type PlanDecision = ApprovalDecision | { approved: true; plan: PlanInput };

/** How a plan differs from the plan approved before it, by step id. */
export interface PlanChanges {
  /** The same step as before (task, tool, arguments, dependencies, model). */
  kept: string[];
  added: string[];
  changed: string[];
  dropped: string[];
}

/** A plan that waits for review (`reviewPlan: true`). Decide it in `approvals[id]`. */
export interface PendingPlan {
  /** `plan:<version>`: the key to decide it with. */
  id: string;
  kind: "plan";
  version: number;
  plan: Plan;
  /** What changed since the plan approved before it (every step is `added` for the first). */
  changes: PlanChanges;
  /** Why the planner wrote this plan: the replan's problem, or the feedback on a rejected plan. */
  reason?: string;
  /** Of the plan: a decision that names a digest applies only to the plan that was shown. */
  digest: string;
}

export interface PlanReviewContext {
  task: string;
  version: number;
  /** The plan approved before this one; undefined for the first. */
  previous: Plan | undefined;
  changes: PlanChanges;
  reason: string | undefined;
}

/** Decides on each new plan in code. */
export type PlanReviewer = (plan: Plan, context: PlanReviewContext) => PlanDecision | Promise<PlanDecision>;

/**
 * `reviewPlan`: `true` stops the run as `waiting` on each new plan version (its `pending`
 * holds the plan); a function decides in code. A replan that only keeps or drops steps of
 * the plan approved before it is not reviewed again: there is nothing new to look at.
 */
export type ReviewPlanOption = boolean | PlanReviewer | undefined;

/** The pending id of plan `version`. */
export function planReviewId(version: number): string {
  return `plan:${version}`;
}

export function planDigest(plan: Plan): string {
  return createHash("sha256").update(canonicalJson(plan)).digest("hex").slice(0, 16);
}

/** Step by step, how `next` differs from `previous` (every step added when there is none). */
export function planChanges(previous: Plan | undefined, next: Plan): PlanChanges {
  const before = new Map((previous?.steps ?? []).map((step) => [stepKey(step.id), comparable(step)]));
  const changes: PlanChanges = { kept: [], added: [], changed: [], dropped: [] };
  const seen = new Set<string>();
  for (const step of next.steps) {
    const key = stepKey(step.id);
    seen.add(key);
    const old = before.get(key);
    if (old === undefined) changes.added.push(key);
    else if (old === comparable(step)) changes.kept.push(key);
    else changes.changed.push(key);
  }
  for (const key of before.keys()) if (!seen.has(key)) changes.dropped.push(key);
  return changes;
}

function comparable(step: PlanStep): string {
  const { id, depends_on: dependsOn, estimateMs: _estimate, ...rest } = step;
  return canonicalJson({ ...rest, id: stepKey(id), depends_on: dependsOn.map(stepKey).sort() });
}

export function pendingPlan(checked: CheckedPlan, context: PlanReviewContext): PendingPlan {
  return {
    id: planReviewId(context.version),
    kind: "plan",
    version: context.version,
    plan: checked.plan,
    changes: context.changes,
    ...(context.reason === undefined ? {} : { reason: context.reason }),
    digest: planDigest(checked.plan),
  };
}

/** What a review decided, read and checked: the plan to run, feedback for the planner, or an edited plan's problems. */
export type ReadDecision =
  { kind: "approved"; checked: CheckedPlan } | { kind: "rejected"; feedback: string } | { kind: "invalid"; errors: string[] };

/**
 * Reads a decision on `pending`: its shape, the digest it names (if any), and an edited
 * plan checked against the tools. Malformed decisions are errors that say what is expected.
 */
export function readPlanDecision(
  decision: unknown,
  pending: PendingPlan,
  context: { checked: CheckedPlan; tools: readonly Tool[] },
): ReadDecision {
  if (decision === true) return { kind: "approved", checked: context.checked };
  if (!isRecord(decision) || typeof decision.approved !== "boolean") {
    throw new InvalidOptionsError(
      `the decision on ${pending.id} must be { approved: true }, { approved: false, reason } or { approved: true, plan }`,
    );
  }
  if (decision.digest !== undefined && decision.digest !== pending.digest) {
    throw new InvalidOptionsError(
      `the decision on ${pending.id} names digest ${String(decision.digest)}, but the plan waiting there has ${pending.digest}`,
    );
  }
  if (!decision.approved) {
    const reason = typeof decision.reason === "string" && decision.reason.trim() !== "" ? decision.reason : "no reason was given";
    return { kind: "rejected", feedback: reason };
  }
  if (decision.plan === undefined) return { kind: "approved", checked: context.checked };
  const edited = checkPlan(decision.plan, { tools: context.tools });
  if (edited.ok) return { kind: "approved", checked: edited };
  return { kind: "invalid", errors: edited.errors.map((error) => error.message) };
}

/** The problems of an edited plan a human gave, as one error (the run is unchanged: give it again). */
export function editedPlanError(pending: PendingPlan, errors: readonly string[]): InvalidOptionsError {
  const listed = cappedList([...errors], (count) => `and ${count} more`).join("; ");
  return new InvalidOptionsError(`the edited plan given for ${pending.id} is invalid: ${listed}`);
}
