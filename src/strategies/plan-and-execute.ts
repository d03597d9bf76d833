import { givenDecisions } from "./strategy-durability.js";
import { InvalidOptionsError } from "../core/errors.js";
import type { Model, ToolSpec } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { ExecutionSettings, Observer } from "../executor/execution-options.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import type { PlanFormat } from "../planner/parsers/parse-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import { resolvePrompts } from "../planner/prompts.js";
import { reusableResults } from "../replan/merge-plan.js";
import { describeProblem } from "../replan/replan-trigger.js";
import { answerPhase, type Critic, type PlanVerifier } from "./answer-phase.js";
import { runExecution } from "./planning-loop.js";
import { readPlanStrategyState, type PlanAndExecuteState } from "./plan-strategy-state.js";
import { stepViews } from "./step-views.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { modelNamesOf, requestPlan } from "./planning.js";
import { runPlanningLoop, type Planned, type PlanningStrategy } from "./planning-loop.js";
import { earlyReplanner, type EarlyReplanner } from "./early-replan.js";
import { runStrategyDurably } from "./durable-strategy.js";
import type { PlanAttempt } from "../planner/make-plan.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import { openPlanCache, type PlanCache, type PlanCacheOption } from "./plan-cache.js";
import type { PlanningDecisions } from "./planning.js";
import { checkStrategyOptions, type StrategyOptions, type StrategyRun, type StrategyStop } from "./strategy-run.js";

export interface PlanAndExecuteOptions extends StrategyOptions, PlanningDecisions, ExecutionSettings {
  /** Writes and rewrites the plan, and the answer (`purpose` "plan", "replan", "solve"). */
  planner: Model;
  /** Runs agent steps; defaults to the planner, so steps can use a cheaper model. */
  executor?: Model;
  tools?: readonly Tool[];
  /** New plans allowed after the first; default 3. */
  maxReplans?: number | undefined;
  /** Times an invalid plan goes back to the planner with its errors; default 2. */
  maxRepairs?: number;
  critic?: Critic;
  verify?: PlanVerifier;
  /**
   * Start the replanner the moment a step fails or an output asks for a new plan, while the
   * independent steps still run, instead of once they have all ended. The early plan is
   * used if the run ends with exactly that problem; otherwise the planner is asked again
   * with everything (one model call more). Default false.
   */
  replanEarly?: boolean | undefined;
  /** Sees every step's output; `{ replan: reason }` asks for a new plan (new information). */
  observe?: Observer;
  /** How the planner writes plans; default "json". */
  format?: PlanFormat;
  /**
   * Ask for a JSON plan by its schema (structured output: OpenAI-compatible
   * `response_format`, the AI SDK's `responseFormat`) where the model supports it; the text
   * is read and checked either way. Default true.
   */
  structuredPlans?: boolean | undefined;
  /**
   * Reuse plans across runs (see `PlanCacheOption`): a plan that succeeded is kept in the store
   * under the task's key, and a later run of the same kind starts from it with no planner call.
   */
  planCache?: PlanCacheOption | boolean | undefined;
  /**
   * Tell the planner it may write wait and poll steps (`wait`, `waitFor`, `poll`: see
   * docs/waits-and-schedules.md), for tasks that wait on the world. Default false: the prompt
   * stays as short as before.
   */
  waitSteps?: boolean | undefined;
  /** `result.state` of a run that ended `waiting`, to continue it. */
  resume?: PlanAndExecuteState | undefined;
}

/**
 * Plan-and-Execute (seed 001 §5): the planner writes a dependency graph of steps, the
 * executor runs it in parallel, and when a step fails, an output contradicts the plan, new
 * information arrives, or the answer is rejected, the planner writes a new plan that keeps
 * the results still valid. Then a solver answers from the results.
 *
 * @example
 * const result = await planAndExecute({ task: "Write this week's report", planner, executor: cheapModel, tools });
 */
export async function planAndExecute(options: PlanAndExecuteOptions): Promise<PlanStrategyResult<PlanAndExecuteState>> {
  const config = readOptions(options);
  const saved = config.resume === undefined ? undefined : readPlanStrategyState("plan-and-execute", config.resume, config.tools);
  const cache = openPlanCache(options.planCache, { task: options.task, store: options.store, durable: options });
  const result = await runStrategyDurably("plan-and-execute", options, saved, (run) => {
    const decisions = givenDecisions(config);
    return runPlanningLoop(run, planAndExecuteSteps(run, config, cache), {
      resumed: saved ? { saved, decisions } : undefined,
      review: { option: config.reviewPlan, tools: config.tools, approvals: config.approvals },
    });
  });
  // The plan that got the run to a complete answer is the one the next run of its kind starts from.
  if (cache !== undefined && result.status === "completed" && result.plan !== undefined) await cache.learn(result.plan);
  return result;
}

type Config = ReturnType<typeof readOptions>;

function readOptions(options: PlanAndExecuteOptions) {
  checkStrategyOptions(options, { planner: true });
  const maxReplans = options.maxReplans ?? 3;
  const maxRepairs = options.maxRepairs ?? 2;
  for (const [name, value] of [
    ["maxReplans", maxReplans],
    ["maxRepairs", maxRepairs],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) throw new InvalidOptionsError(`${name} must be an integer >= 0`);
  }
  return {
    ...options,
    tools: options.tools ?? [],
    executor: options.executor ?? options.planner,
    maxReplans,
    maxRepairs,
    prompts: resolvePrompts(options.prompts),
    format: options.format ?? ("json" as PlanFormat),
  };
}

/** Plan-and-Execute's parts: plans from the planner, results kept across replans, a solver and a critic. */
function planAndExecuteSteps(run: StrategyRun, config: Config, cache: PlanCache | undefined): PlanningStrategy<CheckedPlan> {
  const specs = config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  let current: Plan | undefined;
  let early: EarlyReplanner | undefined;
  const planned = (attempt: PlanAttempt<StrategyStop>): Planned<CheckedPlan> =>
    attempt.ok ? { ok: true, source: attempt.checked } : attempt;
  return {
    name: "plan-and-execute",
    answerer: { model: config.planner, prompts: config.prompts },
    maxReplans: config.maxReplans,
    maxRevisions: config.maxReplans,
    async plan() {
      const reused = await cache?.lookup(config.tools);
      if (reused !== undefined) {
        run.events.emit({ type: "plan-reused", key: cache!.key });
        return { ok: true, source: reused };
      }
      const prompt = config.prompts.plan({ task: run.task, tools: specs, format: config.format, ...modelNamesOf(config) });
      return planned(await requestPlan(run, config, "plan", prompt));
    },
    written: async (source) => ({ ok: true, source }),
    async execute({ source, paused, version, acknowledged, previous }) {
      current = source?.plan ?? paused!.plan;
      const replans = version - 1;
      early =
        config.replanEarly && replans < config.maxReplans
          ? earlyReplanner(run, config, { plan: current, specs, replans: replans + 1 })
          : undefined;
      return runExecution(run, {
        ...config,
        model: config.executor,
        plan: current,
        checked: source,
        // Results of the plan before that this plan keeps unchanged are not run again.
        reuse: previous && source ? reusableResults(previous.plan, previous.steps, current) : {},
        version,
        acknowledged,
        paused,
        onProblem: early?.listener,
      });
    },
    async judge(execution) {
      const problem = describeProblem({ steps: execution.steps, replanRequests: execution.replanRequests, optional: execution.missing });
      if (problem !== undefined) return { kind: "replan", problem };
      const answer = await answerPhase(run, {
        solver: config.planner,
        prompts: config.prompts,
        plan: current!,
        steps: execution.steps,
        ...(config.critic ? { critic: config.critic } : {}),
        ...(config.verify ? { verify: config.verify } : {}),
      });
      if (answer.kind === "stopped") return { kind: "stop", stop: answer.stop };
      if (answer.kind === "accepted") return { kind: "answer", output: answer.output };
      if (answer.kind === "unverified")
        return { kind: "stop", stop: { status: "unverified", reason: answer.reason }, output: answer.output };
      return { kind: "replan", problem: answer.problem, output: answer.output };
    },
    async replan({ plan, steps, problem, replans: count, execution }) {
      const earlyPlan = execution === undefined ? undefined : await early?.take(problem);
      return planned(earlyPlan ?? (await replan(run, config, { plan, specs, steps, problem, replans: count })));
    },
    settle: async () => early?.settle(),
  };
}

/** Asks the planner for a new plan from the settled run's results. */
function replan(
  run: StrategyRun,
  config: Config,
  context: { plan: Plan; specs: readonly ToolSpec[]; steps: PlanRunResult["steps"]; problem: string; replans: number },
): ReturnType<typeof requestPlan> {
  const { plan, specs, steps, problem } = context;
  run.events.emit({ type: "replan-start", replans: context.replans, reason: problem });
  const messages = config.prompts.replan({
    task: run.task,
    tools: specs,
    format: config.format,
    plan,
    results: stepViews(plan, steps),
    problem,
    ...modelNamesOf(config),
  });
  return requestPlan(run, config, "replan", messages);
}
