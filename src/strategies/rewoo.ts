import { givenDecisions } from "./strategy-durability.js";
import type { Model } from "../core/model.js";
import { resolvePrompts } from "../planner/prompts.js";
import { describeProblem } from "../replan/replan-trigger.js";
import type { Plan } from "../plan/plan-schema.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import type { Prompts } from "../planner/prompts.js";
import { runExecution } from "./planning-loop.js";
import { requestPlan, type PlanningOptions } from "./planning.js";
import { runPlanningLoop, type PlanningStrategy } from "./planning-loop.js";
import { readPlanStrategyState, type RewooState } from "./plan-strategy-state.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { ask, checkStrategyOptions, type StrategyRun } from "./strategy-run.js";
import { runStrategyDurably } from "./durable-strategy.js";

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
  checkStrategyOptions(options, { planner: true, toolsFor: "rewoo" });
  const config = { ...options, prompts: resolvePrompts(options.prompts), format: "rewoo" as const, maxRepairs: options.maxRepairs ?? 2 };
  const saved = options.resume === undefined ? undefined : readPlanStrategyState("rewoo", options.resume, config.tools);
  return runStrategyDurably("rewoo", options, saved, (run) => {
    const decisions = givenDecisions(config);
    return runPlanningLoop(run, rewooSteps(run, config), {
      resumed: saved ? { saved, decisions } : undefined,
      review: { option: config.reviewPlan, tools: config.tools, approvals: config.approvals },
    });
  });
}

/** ReWOO's parts: one plan, run as written; a solver answers from the evidence, even when some is missing. */
function rewooSteps(
  run: StrategyRun,
  config: RewooOptions & { prompts: Prompts; format: "rewoo"; maxRepairs: number },
): PlanningStrategy<CheckedPlan> {
  let current: Plan | undefined;
  const specs = config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  return {
    name: "rewoo",
    answerer: { model: config.solver ?? config.planner, prompts: config.prompts },
    maxReplans: 0,
    // ReWOO never replans after running; a plan its reviewer rejects is rewritten as often as an invalid one is repaired.
    maxRevisions: config.maxRepairs,
    async plan() {
      const planned = await requestPlan(run, config, "plan", config.prompts.plan({ task: run.task, tools: specs, format: "rewoo" }));
      return planned.ok ? { ok: true, source: planned.checked } : planned;
    },
    execute({ source, paused, version, acknowledged }) {
      current = source?.plan ?? paused!.plan;
      return runExecution(run, { ...config, plan: current, checked: source, version, acknowledged, paused });
    },
    async judge(execution) {
      const results = stepViews(current!, execution.steps);
      const solved = await ask(run, config.solver ?? config.planner, "solve", config.prompts.solve({ task: run.task, results }));
      if (!solved.ok) return { kind: "stop", stop: solved.stop };
      const problem = describeProblem({ steps: execution.steps, replanRequests: execution.replanRequests, optional: execution.missing });
      if (problem === undefined) return { kind: "answer", output: solved.text };
      const reason = `the plan could not run as written (ReWOO does not replan): ${problem}`;
      return { kind: "stop", stop: { status: "failed", reason }, output: solved.text };
    },
    written: async (source) => ({ ok: true, source }),
    async replan({ execution, plan, steps, problem }) {
      if (execution !== undefined) throw new Error("ReWOO does not replan after running a plan");
      const messages = config.prompts.replan({
        task: run.task,
        tools: specs,
        format: "rewoo",
        plan,
        results: stepViews(plan, steps),
        problem,
      });
      const planned = await requestPlan(run, config, "replan", messages);
      return planned.ok ? { ok: true, source: planned.checked } : planned;
    },
  };
}
