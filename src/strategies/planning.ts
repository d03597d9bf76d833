import type { Message } from "../core/messages.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { makePlan, type PlanAttempt } from "../planner/make-plan.js";
import type { PlanFormat } from "../planner/parsers/parse-plan.js";
import type { Prompts } from "../planner/prompts.js";
import type { ExecutionSettings } from "../executor/execution-options.js";
import { ask, type HumanDecisions, type StrategyOptions, type StrategyRun, type StrategyStop } from "./strategy-run.js";

/** What ReWOO and LLMCompiler share: a planner, the tools the plan may call, and how steps run. */
export interface PlanningOptions extends StrategyOptions, HumanDecisions, ExecutionSettings {
  planner: Model;
  tools: readonly Tool[];
}

/** Asks the planner for a plan and validates it, sending invalid plans back for repair. */
export function requestPlan(
  run: StrategyRun,
  config: { planner: Model; format: PlanFormat; tools: readonly Tool[]; prompts: Prompts; maxRepairs: number },
  purpose: "plan" | "replan",
  messages: Message[],
): Promise<PlanAttempt<StrategyStop>> {
  return makePlan({
    ask: (conversation) => ask(run, config.planner, purpose, conversation),
    messages,
    format: config.format,
    tools: config.tools,
    prompts: config.prompts,
    maxRepairs: config.maxRepairs,
    onInvalid: (errors, attempt) => run.events.emit({ type: "plan-invalid", attempt, errors }),
  });
}

/** The model names a planner may give agent steps: the run's `models`, when it has some. */
export function modelNamesOf(config: { models?: Record<string, unknown> | undefined }): { models?: string[] } {
  return config.models === undefined ? {} : { models: Object.keys(config.models) };
}
