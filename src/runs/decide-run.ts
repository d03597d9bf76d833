import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import { InvalidOptionsError } from "../core/errors.js";
import { textKeyed } from "../core/records.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { PlanInput } from "../plan/plan-schema.js";
import { validatePlan } from "../plan/validate-plan.js";
import type { PlanDecision } from "../strategies/plan-review.js";
import { DecisionsRefusedError, type DecisionProblem } from "./decisions-refused.js";

/** A person's decision on one item a run waits for. */
export type RunDecision =
  | { pendingId: string; action: "approve" }
  | { pendingId: string; action: "deny"; reason?: string | undefined }
  | { pendingId: string; action: "answer"; text: string }
  /** A plan under review, approved as edited. */
  | { pendingId: string; action: "edit"; plan: unknown };

export type DecisionAction = RunDecision["action"];

/** What a run waits for now, as the store shows it (the `pending` of its view). */
export interface WaitingRun {
  runId: string;
  pending: ReadonlyArray<{
    id: string;
    kind: string;
    /** When a request for approval lapses (ms since 1970). */ expiresAt?: number | undefined;
  }>;
  /** The run's status once it has finished: it waits for nothing then. */
  finished?: string | undefined;
}

export interface DecideRunOptions {
  run: WaitingRun;
  /** One decision, or a wave: taken whole or not at all. */
  decisions: RunDecision | readonly RunDecision[];
  /** Who decides (a person, a token's name, a face): kept with each decision. */
  by: string;
  /** When, in ms since 1970. Default: now. */
  at?: number | undefined;
  /** The run's tools, to check an edited plan's tool names and arguments against. */
  tools?: readonly Tool[] | undefined;
}

/** Decisions as the engine takes them (`approvals`, `answers`, `decidedBy`), with who and when. */
export interface RunDecisions {
  /** The ids decided, in the order given. */
  ids: string[];
  /** By pending id (an edited plan is an approval with its plan). */
  approvals: Record<string, PlanDecision>;
  /** By pending id. */
  answers: Record<string, string>;
  decidedBy: string;
  decidedAt: number;
}

/**
 * What each kind of item takes, and how a refusal words it: a call's approval, a question, a
 * call cut off by a crash (approve runs it again, deny fails it, answer marks it done with the
 * answer as its output), a plan under review (deny rejects it: the planner writes a new one).
 */
const kinds = new Map<string, { actions: readonly DecisionAction[]; waitsFor: string }>([
  ["approval", { actions: ["approve", "deny"], waitsFor: "approval (approve or deny)" }],
  ["input", { actions: ["answer"], waitsFor: "an answer" }],
  ["interrupted", { actions: ["approve", "deny", "answer"], waitsFor: "word of a call cut off by a crash (approve, deny or answer)" }],
  ["plan", { actions: ["approve", "deny", "edit"], waitsFor: "review of a plan (approve, deny or edit)" }],
]);

/**
 * Checks a person's decision, or a wave of them, against what the run waits for now, and
 * gives it in the engine's shape. Every item must name an id the run waits for, once, with
 * an action that fits its kind (an answer with text, an edited plan that checks); if any
 * does not, the whole wave is refused (`DecisionsRefusedError`, naming each bad item) and
 * nothing is decided. Every face (the HTTP API, the ui, MCP, the CLI) decides through here.
 *
 * ```ts
 * // `pending` as the store shows it: [{ id: "step:1", kind: "approval" }, { id: "step:2", kind: "input" }]
 * const { approvals, answers, decidedBy } = decideRun({
 *   run: { runId, pending },
 *   decisions: [{ pendingId: "step:1", action: "approve" }, { pendingId: "step:2", action: "answer", text: "EUR" }],
 *   by: "ana",
 * });
 * await executePlan({ plan, tools, store, runId, approvals, answers, decidedBy });
 * ```
 */
export function decideRun(options: DecideRunOptions): RunDecisions {
  const { run, by } = options;
  const wave: readonly RunDecision[] = Array.isArray(options.decisions) ? options.decisions : [options.decisions as RunDecision];
  if (wave.length === 0) throw new InvalidOptionsError("decideRun: a wave decides at least one item");
  const kindOf = new Map(run.pending.map((item) => [item.id, item.kind]));
  const lapsesAt = new Map(run.pending.map((item) => [item.id, item.expiresAt]));
  const seen = new Set<string>();
  const problems: DecisionProblem[] = [];
  const decided: RunDecisions = {
    ids: [],
    approvals: textKeyed(),
    answers: textKeyed(),
    decidedBy: by,
    decidedAt: options.at ?? Date.now(),
  };
  for (const decision of wave) {
    const lapsed = lapsesAt.get(decision.pendingId);
    const checked =
      decision.action === "approve" && lapsed !== undefined && lapsed <= decided.decidedAt && !seen.has(decision.pendingId)
        ? lapsedProblem(decision.pendingId, lapsed)
        : check(decision, { run, kind: kindOf.get(decision.pendingId), seen, tools: options.tools });
    seen.add(decision.pendingId);
    if ("problem" in checked) problems.push(checked);
    else take(decided, checked);
  }
  if (problems.length > 0) throw new DecisionsRefusedError(run.runId, problems);
  return decided;
}

/** The decision as it is taken (an edited plan as checked), or what is wrong with it. */
function check(
  decision: RunDecision,
  context: { run: WaitingRun; kind: string | undefined; seen: ReadonlySet<string>; tools: readonly Tool[] | undefined },
): RunDecision | DecisionProblem {
  const { pendingId, action } = decision;
  if (context.seen.has(pendingId)) return { pendingId, problem: "repeated", message: `${pendingId} is named more than once` };
  if (context.kind === undefined) {
    const why = context.run.finished
      ? `the run has finished (${context.run.finished}); it waits for nothing`
      : "it was decided, or the run went on";
    return { pendingId, problem: "not-pending", message: `the run does not wait for "${pendingId}" (${why})` };
  }
  const kind = kinds.get(context.kind);
  if (kind === undefined || !kind.actions.includes(action)) {
    const wanted = kind?.waitsFor ?? `"${context.kind}", which no person decides`;
    return { pendingId, problem: "wrong-action", message: `${pendingId} waits for ${wanted}; "${action}" does not fit it` };
  }
  if (decision.action === "answer" && (typeof decision.text !== "string" || decision.text === ""))
    return { pendingId, problem: "no-answer", message: `the answer to ${pendingId} has no text` };
  if (decision.action !== "edit") return decision;
  const checked = validatePlan(decision.plan, context.tools === undefined ? {} : { tools: context.tools });
  if (checked.ok) return { ...decision, plan: checked.plan };
  const errors = checked.errors.map((error) => error.message);
  return { pendingId, problem: "invalid-plan", message: `the edited plan for ${pendingId} cannot run: ${errors.join("; ")}`, errors };
}

/** An approval asked for too late: the request lapsed, and the run denies the call when it goes on. */
function lapsedProblem(pendingId: string, at: number): DecisionProblem {
  return {
    pendingId,
    problem: "lapsed",
    message: `the request for approval of ${pendingId} lapsed at ${new Date(at).toISOString()}; it can no longer be approved (the run denies it when it goes on)`,
  };
}

function take(decided: RunDecisions, decision: RunDecision): void {
  decided.ids.push(decision.pendingId);
  if (decision.action === "answer") decided.answers[decision.pendingId] = decision.text;
  else
    decided.approvals[decision.pendingId] =
      decision.action === "approve"
        ? { approved: true }
        : decision.action === "edit"
          ? { approved: true, plan: decision.plan as PlanInput }
          : { approved: false, ...(decision.reason ? { reason: decision.reason } : {}) };
}

/** People's decisions as `decideRun` gave them, as the run's options take them. */
export function decisionOptions(decided: RunDecisions | undefined): {
  approvals?: Record<string, ApprovalDecision>;
  answers?: Record<string, string>;
  decidedBy?: string;
} {
  if (decided === undefined) return {};
  return { approvals: decided.approvals as Record<string, ApprovalDecision>, answers: decided.answers, decidedBy: decided.decidedBy };
}
