import type { Message } from "../core/messages.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { makePlan, type PlanAttempt } from "../planner/make-plan.js";
import type { PlanFormat } from "../planner/parsers/parse-plan.js";
import type { Prompts } from "../planner/prompts.js";
import type { ExecutionSettings } from "../executor/execution-options.js";
import type { PlanDecision, ReviewPlanOption } from "./plan-review.js";
import { planResponseFormat } from "../planner/plan-response-format.js";
import { askFor, type HumanDecisions, type StrategyOptions, type StrategyRun, type StrategyStop } from "./strategy-run.js";

/** What every planning strategy takes to have its plans reviewed before they run. */
export interface PlanReviewOptions {
  /**
   * Review every new plan version (the first plan and each replan) before any of it runs:
   * `true` stops the run as `waiting` with the plan in `pending` (decide it in `approvals`
   * under its id, `plan:<version>`); a function decides in code. See `PlanDecision`.
   */
  reviewPlan?: ReviewPlanOption;
  /** Decisions on pending calls (`ApprovalDecision`) and on plans waiting for review (`PlanDecision`), by pending id. */
  approvals?: Record<string, PlanDecision> | undefined;
}

/** A planning run's decisions: answers to questions (`HumanDecisions`), and approvals that may decide plans too. */
export interface PlanningDecisions extends Omit<HumanDecisions, "approvals">, PlanReviewOptions {}

/** What ReWOO and LLMCompiler share: a planner, the tools the plan may call, and how steps run. */
export interface PlanningOptions extends StrategyOptions, PlanningDecisions, ExecutionSettings {
  planner: Model;
  tools: readonly Tool[];
}

/** What asking a planner for a plan takes. */
export interface PlannerSettings {
  planner: Model;
  format: PlanFormat;
  tools: readonly Tool[];
  prompts: Prompts;
  maxRepairs: number;
  structuredPlans?: boolean | undefined;
}

/** Asks the planner for a plan and validates it, sending invalid plans back for repair. */
export function requestPlan(
  run: StrategyRun,
  config: PlannerSettings,
  purpose: "plan" | "replan",
  messages: Message[],
): Promise<PlanAttempt<StrategyStop>> {
  // A JSON plan is asked for by its schema where the model supports structured output.
  const responseFormat = config.format === "json" && config.structuredPlans !== false ? planResponseFormat() : undefined;
  return makePlan({
    ask: (conversation) => askFor(run, { model: config.planner, purpose, messages: conversation, responseFormat }),
    messages,
    format: config.format,
    tools: config.tools,
    prompts: config.prompts,
    maxRepairs: config.maxRepairs,
    onInvalid: (errors, attempt, unknownTools) =>
      run.events.emit({ type: "plan-invalid", attempt, errors, ...(unknownTools.length > 0 ? { unknownTools } : {}) }),
  });
}

/** The model names a planner may give agent steps: the run's `models`, when it has some. */
export function modelNamesOf(config: { models?: Record<string, unknown> | undefined; waitSteps?: boolean | undefined }): {
  models?: string[];
  waits?: true;
} {
  return {
    ...(config.models === undefined ? {} : { models: Object.keys(config.models) }),
    ...(config.waitSteps === true ? { waits: true } : {}),
  };
}
