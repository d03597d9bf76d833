import type { Model } from "../core/model.js";
import { resolvePrompts } from "../planner/prompts.js";
import { describeProblem } from "../replan/replan-trigger.js";
import { executionStop, runExecution } from "./execution.js";
import { planningFailure, finishPlanStrategy, pausedState, requestPlan, type PlanningOptions } from "./planning.js";
import { readPlanStrategyState, type RewooState } from "./plan-strategy-state.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, checkStrategyOptions, startStrategyRun } from "./strategy-run.js";

/** `planner` writes the whole plan at once as `#E1 = tool[input]` lines (purpose "plan"). */
export interface RewooOptions extends PlanningOptions {
  /** Writes the answer from the evidence (purpose "solve"); defaults to the planner. */
  solver?: Model;
  /** Times an invalid plan goes back to the planner with its errors; default 2. */
  maxRepairs?: number;
  /** `result.state` of a run that ended `waiting`, to continue it without planning again. */
  resume?: RewooState | undefined;
}

/**
 * ReWOO (seed 001 §5): the planner writes every tool call up front, referring to earlier
 * evidence as `#E1`; the tools run as a DAG with no model calls between them; a solver
 * answers from the evidence. Two model calls for any number of tools, and no replanning:
 * a plan that meets a surprise fails.
 */
export async function rewoo(options: RewooOptions): Promise<PlanStrategyResult<RewooState>> {
  checkStrategyOptions(options, { planner: true });
  const config = { ...options, prompts: resolvePrompts(options.prompts), format: "rewoo" as const, maxRepairs: options.maxRepairs ?? 2 };
  const saved = options.resume === undefined ? undefined : readPlanStrategyState("rewoo", options.resume, config.tools);
  const run = startStrategyRun("rewoo", options, saved);
  try {
    let plan = saved?.planVersions.at(-1);
    if (!plan) {
      const specs = config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
      const planned = await requestPlan(run, config, "plan", config.prompts.plan({ task: run.task, tools: specs, format: "rewoo" }));
      if (!planned.ok) return finishPlanStrategy<RewooState>(run, { versions: [], replans: 0, ...planningFailure(planned) });
      plan = planned.plan;
    }
    const versions = [plan];
    const execution = await runExecution(run, {
      plan,
      tools: config.tools,
      ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
      ...(config.retry ? { retry: config.retry } : {}),
      ...(saved ? { paused: { state: saved.execution, approvals: config.approvals ?? {}, answers: config.answers ?? {} } } : {}),
    });
    const stopped = executionStop(run, execution);
    if (stopped) {
      const state = pausedState(run, "rewoo", { versions, replans: 0, acknowledged: [], execution });
      return finishPlanStrategy<RewooState>(run, {
        versions,
        steps: execution.steps,
        replans: 0,
        stop: stopped,
        execution,
        ...(state ? { state } : {}),
      });
    }
    const solved = await ask(
      run,
      config.solver ?? config.planner,
      "solve",
      config.prompts.solve({ task: run.task, results: stepViews(plan, execution.steps) }),
    );
    if (!solved.ok) return finishPlanStrategy<RewooState>(run, { versions, steps: execution.steps, replans: 0, stop: solved.stop });
    const problem = describeProblem(execution);
    return finishPlanStrategy<RewooState>(run, {
      versions,
      steps: execution.steps,
      replans: 0,
      output: solved.text,
      stop:
        problem === undefined
          ? { status: "completed" }
          : { status: "failed", reason: `the plan could not run as written (ReWOO does not replan): ${problem}` },
    });
  } finally {
    run.dispose();
  }
}
