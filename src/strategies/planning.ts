import type { Message } from "../core/messages.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import { makePlan, type PlanAttempt } from "../planner/make-plan.js";
import type { PlanFormat } from "../planner/parsers/parse-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import type { Prompts } from "../planner/prompts.js";
import type { ExecutionSettings } from "../executor/execution-options.js";
import { createPlanStrategyState, type PlanningStrategyName, type PlanStrategyState } from "./plan-strategy-state.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, finishStrategy, type HumanDecisions, type StrategyOptions, type StrategyRun, type StrategyStop } from "./strategy-run.js";

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

/** The stop for a planning attempt that produced no plan, with the validation errors. */
export function planningFailure(attempt: Exclude<PlanAttempt<StrategyStop>, { ok: true }>): { stop: StrategyStop; errors?: string[] } {
  if ("stop" in attempt) return { stop: attempt.stop };
  return {
    stop: { status: "failed", reason: `the planner did not produce a valid plan: ${attempt.errors.join("; ")}` },
    errors: attempt.errors,
  };
}

export interface Ending<State extends PlanStrategyState = PlanStrategyState> {
  versions: Plan[];
  steps?: PlanRunResult["steps"];
  replans: number;
  stop: StrategyStop;
  errors?: string[];
  execution?: PlanRunResult;
  output?: string;
  /** For `waiting`: what `resume` needs. */
  state?: State;
}

/** The result of a planning strategy from how it ended. */
export function finishPlanStrategy<State extends PlanStrategyState>(run: StrategyRun, ending: Ending<State>): PlanStrategyResult<State> {
  const { versions, stop, output, errors, execution } = ending;
  return finishStrategy<PlanStrategyResult<State>>(run, {
    status: stop.status,
    ...(output === undefined ? {} : { output }),
    ...(stop.reason === undefined ? {} : { reason: stop.reason }),
    ...(stop.limit === undefined ? {} : { limit: stop.limit }),
    ...(execution?.pending ? { pending: execution.pending } : {}),
    ...(errors ? { errors } : {}),
    ...(ending.state ? { state: ending.state } : {}),
    ...(versions.length > 0 ? { plan: versions.at(-1)! } : {}),
    planVersions: versions,
    stepResults: ending.steps ?? {},
    replans: ending.replans,
    steps: run.trace.filter((event) => event.type === "step-start").length,
  });
}

/** What `resume` needs when an execution paused for a human; undefined for any other stop. */
export function pausedState<Strategy extends PlanningStrategyName>(
  run: StrategyRun,
  strategy: Strategy,
  paused: { versions: Plan[]; replans: number; acknowledged: string[]; execution: PlanRunResult },
): PlanStrategyState<Strategy> | undefined {
  const { execution } = paused;
  if (execution.status !== "waiting" || !execution.state) return undefined;
  return createPlanStrategyState(strategy, {
    planVersions: paused.versions,
    replans: paused.replans,
    acknowledged: paused.acknowledged,
    execution: execution.state,
    usage: run.budget.spent,
    elapsedMs: run.budget.elapsedMs(),
  });
}
