import { InvalidOptionsError } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { RetryOptions } from "../executor/retry.js";
import { resolvePrompts, type Prompts } from "../planner/prompts.js";
import { describeProblem } from "../replan/replan-trigger.js";
import { executionStop, runExecution } from "./execution.js";
import { failure, finishPlanStrategy, requestPlan } from "./planning.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, startStrategyRun, type StrategyOptions } from "./strategy-run.js";

export interface RewooOptions extends StrategyOptions {
  /** Writes the whole plan at once, `#E1 = tool[input]` lines (purpose "plan"). */
  planner: Model;
  /** Writes the answer from the evidence (purpose "solve"); defaults to the planner. */
  solver?: Model;
  tools: readonly Tool[];
  concurrency?: number;
  maxRepairs?: number;
  prompts?: Partial<Prompts>;
  retry?: RetryOptions;
}

/**
 * ReWOO (seed 001 §5): the planner writes every tool call up front, referring to earlier
 * evidence as `#E1`; the tools run as a DAG with no model calls between them; a solver
 * answers from the evidence. Two model calls for any number of tools, and no replanning:
 * a plan that meets a surprise fails.
 */
export async function rewoo(options: RewooOptions): Promise<PlanStrategyResult> {
  if (typeof options?.task !== "string" || options.task.trim() === "") throw new InvalidOptionsError("task must be a non-empty string");
  if (!options.planner) throw new InvalidOptionsError("planner must be a model");
  const config = { ...options, prompts: resolvePrompts(options.prompts), format: "rewoo" as const, maxRepairs: options.maxRepairs ?? 2 };
  const run = startStrategyRun("rewoo", options);
  try {
    const specs = config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    const planned = await requestPlan(run, config, "plan", config.prompts.plan({ task: run.task, tools: specs, format: "rewoo" }));
    if (!planned.ok) return finishPlanStrategy(run, { versions: [], replans: 0, ...failure(planned) });
    const versions = [planned.plan];
    const execution = await runExecution(run, {
      plan: planned.plan,
      tools: config.tools,
      ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
      ...(config.retry ? { retry: config.retry } : {}),
    });
    const stopped = executionStop(run, execution);
    if (stopped) return finishPlanStrategy(run, { versions, steps: execution.steps, replans: 0, stop: stopped, execution });
    const solved = await ask(run, config.solver ?? config.planner, "solve", config.prompts.solve({ task: run.task, results: stepViews(planned.plan, execution.steps) }));
    if (!solved.ok) return finishPlanStrategy(run, { versions, steps: execution.steps, replans: 0, stop: solved.stop });
    const problem = describeProblem(execution);
    return finishPlanStrategy(run, {
      versions,
      steps: execution.steps,
      replans: 0,
      output: solved.text,
      stop: problem === undefined ? { status: "completed" } : { status: "failed", reason: `the plan could not run as written (ReWOO does not replan): ${problem}` },
    });
  } finally {
    run.dispose();
  }
}
