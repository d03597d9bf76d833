import { ownValue } from "../core/records.js";
import { InvalidOptionsError, shown } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { llmCompiler } from "./llm-compiler.js";
import { planAndExecute } from "./plan-and-execute.js";
import { react } from "./react.js";
import { rewoo } from "./rewoo.js";
import { codeMode } from "./code-mode/code-mode.js";
import type { StrategyName, StrategyResult, StrategyState } from "./strategy-result.js";
import type { ExecutionSettings } from "../executor/execution-options.js";
import type { StrategyOptions } from "./strategy-run.js";
import type { PlanningDecisions } from "./planning.js";
import type { ContextPolicy } from "../react/context-window.js";
import type { PlanCacheOption } from "./plan-cache.js";

export const strategyNames: readonly StrategyName[] = ["react", "plan-and-execute", "rewoo", "llm-compiler", "code"];

/** The options all five strategies share, for running one task through each. */
export interface SharedStrategyOptions
  extends StrategyOptions, PlanningDecisions, Pick<ExecutionSettings, "concurrency" | "runner" | "slots"> {
  /** Acts (ReAct), runs agent steps, and plans unless `planner` is given. */
  model: Model;
  planner?: Model;
  tools: readonly Tool[];
  /** ReAct's model calls; default 8. */
  maxSteps?: number | undefined;
  maxReplans?: number | undefined;
  /** Plan-and-Execute only: replan while independent steps still run. */
  replanEarly?: boolean | undefined;
  /** Plan-and-Execute only: ask for the JSON plan by its schema where the model can (default true). */
  structuredPlans?: boolean | undefined;
  /** Plan-and-Execute only: reuse plans that succeeded across runs (see `PlanCacheOption`). */
  planCache?: PlanCacheOption | boolean | undefined;
  /** ReAct's loop, and the planning strategies' agent steps: keep each request under a token cap. */
  context?: ContextPolicy | undefined;
  /** A waiting run's `result.state`, to continue it; it must come from the same strategy. */
  resume?: StrategyState | undefined;
}

const strategyOfKind: Record<string, StrategyName> = {
  "planloop/agent-state": "react",
  "planloop/plan-and-execute-state": "plan-and-execute",
  "planloop/rewoo-state": "rewoo",
  "planloop/llm-compiler-state": "llm-compiler",
  "planloop/code-mode-state": "code",
};

/** The strategy a saved state came from, by its `kind`; undefined for anything else. */
export function strategyOfState(state: unknown): StrategyName | undefined {
  const kind = (state as { kind?: unknown } | null)?.kind;
  return typeof kind === "string" ? ownValue(strategyOfKind, kind) : undefined;
}

/**
 * Runs the task with the named strategy, every one with the same model, tools, budget and
 * signal, and returns the shared result shape.
 *
 * @example
 * for (const name of strategyNames) console.log(name, (await runStrategy(name, options)).usage);
 */
export async function runStrategy(name: StrategyName, options: SharedStrategyOptions): Promise<StrategyResult> {
  const {
    model,
    planner = model,
    maxSteps,
    maxReplans,
    replanEarly,
    resume,
    reviewPlan,
    context,
    structuredPlans,
    planCache,
    ...rest
  } = options;
  // Each strategy checks that the state is its own, and says whose it is when it is not.
  const shared = { ...rest, resume: resume as never };
  switch (name) {
    case "react":
      return react({ ...shared, model, maxSteps, context });
    case "plan-and-execute":
      return planAndExecute({
        ...shared,
        planner,
        executor: model,
        maxReplans,
        replanEarly,
        reviewPlan,
        agentContext: context,
        structuredPlans,
        planCache,
      });
    case "rewoo":
      return rewoo({ ...shared, planner, reviewPlan, agentContext: context });
    case "llm-compiler":
      return llmCompiler({ ...shared, planner, maxReplans, reviewPlan, agentContext: context });
    case "code":
      return codeMode({ ...shared, model });
    default:
      throw new InvalidOptionsError(`unknown strategy "${shown(name)}"; use one of ${strategyNames.join(", ")}`);
  }
}
