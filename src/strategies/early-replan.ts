import type { ToolSpec } from "../core/model.js";
import type { PlanProblem } from "../executor/execution-options.js";
import type { PlanAttempt } from "../planner/make-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import { describeProblem } from "../replan/replan-trigger.js";
import { modelNamesOf, requestPlan, type PlannerSettings } from "./planning.js";
import { stepViews } from "./step-views.js";
import type { StrategyRun, StrategyStop } from "./strategy-run.js";

type Attempt = PlanAttempt<StrategyStop>;

export interface EarlyReplanner {
  /** For `onProblem`: starts the replanner on the first problem, while other steps still run. */
  listener(problem: PlanProblem): void;
  /**
   * Once the run has settled: the early plan when it was told about exactly the problem the
   * run ended with; undefined when it never started, or saw only part of the problem (its
   * plan is dropped and the planner is asked again with everything).
   */
  take(problem: string): Promise<Attempt | undefined>;
  /** Waits for a replan still in flight, so nothing runs on after the strategy returns. */
  settle(): Promise<void>;
}

/**
 * Replanning that overlaps the steps still running (`replanEarly`): the moment a step fails
 * or an output asks for a new plan, the planner starts on the new plan, with the steps not
 * yet finished shown as such, instead of waiting for every independent branch to end.
 */
export function earlyReplanner(
  run: StrategyRun,
  config: PlannerSettings & { models?: Record<string, unknown> | undefined; waitSteps?: boolean | undefined },
  context: { plan: Plan; specs: readonly ToolSpec[]; replans: number },
): EarlyReplanner {
  let started: { problem: string; attempt: Promise<Attempt> } | undefined;
  const optional = context.plan.steps.filter((step) => step.optional === true).map((step) => step.id);
  return {
    listener(found) {
      if (started) return;
      const problem = describeProblem({ steps: found.steps, replanRequests: found.replanRequests, optional });
      if (problem === undefined) return;
      run.events.emit({ type: "replan-start", replans: context.replans, reason: problem, early: true });
      const results = stepViews(context.plan, found.steps, { unfinished: "not finished yet" });
      const messages = config.prompts.replan({
        task: run.task,
        tools: context.specs,
        format: config.format,
        plan: context.plan,
        results,
        problem,
        ...modelNamesOf(config),
      });
      started = { problem, attempt: requestPlan(run, config, "replan", messages) };
    },
    async take(problem) {
      if (!started) return undefined;
      const attempt = await started.attempt;
      return started.problem === problem ? attempt : undefined;
    },
    async settle() {
      await started?.attempt;
    },
  };
}
