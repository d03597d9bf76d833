import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import { executeCheckedPlan, executePlan } from "../executor/execute-plan.js";
import type { ExecutePlanOptions, ExecutionSettings, Observer, ProblemListener } from "../executor/execution-options.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import type { PlanRunState } from "../executor/resume-state.js";
import type { PlanAttempt } from "../planner/make-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import { createPlanStrategyState, type PlanningStrategyName, type PlanStrategyState } from "./plan-strategy-state.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { signState } from "../core/state-signature.js";
import { finishStrategy, type StrategyRun, type StrategyStop } from "./strategy-run.js";

/**
 * What a planning strategy does after a plan ran to its end: answer, ask for a new plan
 * (`output` is an answer that was rejected), or stop.
 */
export type NextMove =
  | { kind: "answer"; output: string }
  | { kind: "replan"; problem: string; output?: string }
  | { kind: "stop"; stop: StrategyStop; output?: string };

/** A new plan to run (a checked plan, or what a streaming planner is asked), or why there is none. */
export type Planned<Source> = { ok: true; source: Source } | Exclude<PlanAttempt<StrategyStop>, { ok: true }>;

/** One execution as the skeleton asks for it. */
export interface ExecutionRequest<Source> {
  /** What to run; undefined when a paused execution is continued. */
  source: Source | undefined;
  /** A paused execution to continue, with the human's decisions and the plan it ran. */
  paused: ({ state: PlanRunState; plan: Plan } & HumanDecisions) | undefined;
  /** The plan's version number (1 for the first plan). */
  version: number;
  /** Concerns the plans so far already answer (see `acknowledged` in `executePlan`). */
  acknowledged: readonly string[];
}

/** The parts that make Plan-and-Execute, ReWOO and LLMCompiler different. */
export interface PlanningStrategy<Source> {
  name: PlanningStrategyName;
  /** New plans allowed after the first. */
  maxReplans: number;
  /** The first plan. */
  plan(): Promise<Planned<Source>>;
  execute(request: ExecutionRequest<Source>): Promise<PlanRunResult>;
  /** After an execution that ran to its end (completed or failed). */
  judge(execution: PlanRunResult): Promise<NextMove>;
  /** A new plan for `problem`; `replans` counts this one. */
  replan(request: { execution: PlanRunResult; problem: string; replans: number }): Promise<Planned<Source>>;
}

/**
 * The one loop of every planning strategy (seed 001 §5-§7): plan, execute, then answer,
 * replan or stop, until an answer stands, a stop comes, or no replans are left. A run
 * resumed from `saved` first continues its paused execution. Every ending is turned into a
 * result here.
 */
export async function runPlanningLoop<Source, State extends PlanStrategyState>(
  run: StrategyRun,
  strategy: PlanningStrategy<Source>,
  resumed: { saved: State; decisions: HumanDecisions } | undefined,
): Promise<PlanStrategyResult<State>> {
  const versions: Plan[] = [...(resumed?.saved.planVersions ?? [])];
  const acknowledged: string[] = [...(resumed?.saved.acknowledged ?? [])];
  let replans = resumed?.saved.replans ?? 0;
  const finish = (ending: Omit<Ending<State>, "versions" | "replans">) => finishPlanStrategy<State>(run, { ...ending, versions, replans });
  let source: Source | undefined;
  let paused: ExecutionRequest<Source>["paused"];
  if (resumed) paused = { state: resumed.saved.execution, plan: versions.at(-1)!, ...resumed.decisions };
  else {
    const first = await strategy.plan();
    if (!first.ok) return finish(planningFailure(first));
    source = first.source;
  }
  for (;;) {
    const execution = await strategy.execute({ source, paused, version: replans + 1, acknowledged });
    if (!paused) versions.push(execution.plan);
    paused = undefined;
    const stopped = executionStop(run, execution);
    if (stopped) {
      const state = pausedState(run, strategy.name, { versions, replans, acknowledged, execution }) as State | undefined;
      return finish({ steps: execution.steps, stop: stopped, execution, ...(state ? { state } : {}) });
    }
    const move = await strategy.judge(execution);
    const { output } = move;
    const withOutput = output === undefined ? {} : { output };
    if (move.kind === "answer") return finish({ steps: execution.steps, stop: { status: "completed" }, ...withOutput });
    if (move.kind === "stop") return finish({ steps: execution.steps, stop: move.stop, ...withOutput });
    if (replans >= strategy.maxReplans) {
      const stop: StrategyStop = {
        status: output === undefined ? "failed" : "incomplete",
        reason: `${move.problem} (no replans left after ${replans})`,
      };
      return finish({ steps: execution.steps, stop, ...withOutput });
    }
    for (const request of execution.replanRequests) acknowledged.push(request.reason);
    replans += 1;
    const next = await strategy.replan({ execution, problem: move.problem, replans });
    if (!next.ok) return finish({ steps: execution.steps, ...planningFailure(next) });
    source = next.source;
  }
}

/** What one execution inside a strategy run needs besides the run itself. */
export interface ExecutionInput extends ExecutionSettings {
  plan: Plan;
  /** The plan as the planner's check passed it: not checked again. */
  checked?: CheckedPlan | undefined;
  tools: readonly Tool[];
  model?: Model | undefined;
  reuse?: PlanRunResult["steps"] | undefined;
  version: number;
  observe?: Observer | undefined;
  acknowledged: readonly string[];
  /** A paused execution to continue, with the human's decisions. */
  paused?: ({ state: PlanRunState } & HumanDecisions) | undefined;
  onProblem?: ProblemListener | undefined;
}

/** One execution of a plan inside a strategy run: its budget, signal, clock and events. */
export async function runExecution(run: StrategyRun, input: ExecutionInput): Promise<PlanRunResult> {
  const options: Omit<ExecutePlanOptions, "plan"> = {
    tools: input.tools,
    model: input.model,
    concurrency: input.concurrency,
    retry: input.retry,
    agentMaxSteps: input.agentMaxSteps,
    prompts: input.prompts,
    runner: input.runner,
    latencies: input.latencies,
    models: input.models,
    reuse: input.reuse,
    planVersion: input.version,
    observe: input.observe,
    acknowledged: input.acknowledged,
    onProblem: input.onProblem,
    resume: input.paused?.state,
    approvals: input.paused?.approvals,
    answers: input.paused?.answers,
    ...(await durablePlanRun(run, input.version)),
    signal: run.signal,
    budget: run.budget,
    onEvent: run.events.relay(),
    clock: run.clock,
  };
  return input.checked === undefined ? executePlan({ ...options, plan: input.plan }) : executeCheckedPlan(options, input.checked);
}

/**
 * A durable strategy's plan runs are kept as runs of their own, one per plan version; the
 * human decisions given with the call go to the one that stopped to wait for them.
 */
export async function durablePlanRun(
  run: StrategyRun,
  version: number,
): Promise<Pick<ExecutePlanOptions, "store" | "runId" | "approvals" | "answers">> {
  if (run.durability === undefined) return {};
  const runId = run.durability.planRunId(version);
  return { store: run.durability.store, runId, ...(await run.durability.decisionsFor(runId)) };
}

/** Statuses an execution ends the whole run with; `failed` is left to the strategy. */
export function executionStop(run: StrategyRun, execution: PlanRunResult): StrategyStop | undefined {
  if (execution.status === "completed" || execution.status === "failed") return undefined;
  if (execution.status === "cancelled" && run.abortCause() === "deadline")
    return { status: "deadline_exceeded", limit: "deadlineMs", reason: "the run's deadline passed" };
  const stop: StrategyStop = { status: execution.status };
  if (execution.reason !== undefined) stop.reason = execution.reason;
  if (execution.limit !== undefined) stop.limit = execution.limit;
  return stop;
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

/** What `resume` needs to continue an execution that stopped (waiting, cancelled, out of time or budget); undefined when it ran to its end. */
export function pausedState<Strategy extends PlanningStrategyName>(
  run: StrategyRun,
  strategy: Strategy,
  paused: { versions: Plan[]; replans: number; acknowledged: string[]; execution: PlanRunResult },
): PlanStrategyState<Strategy> | undefined {
  const { execution } = paused;
  // Every execution that stopped (waiting, cancelled, out of time or budget) can be continued.
  if (execution.status === "completed" || execution.status === "failed" || !execution.state) return undefined;
  const state = createPlanStrategyState(strategy, {
    planVersions: paused.versions,
    replans: paused.replans,
    acknowledged: paused.acknowledged,
    execution: execution.state,
    usage: run.budget.spent,
    elapsedMs: run.budget.elapsedMs(),
  });
  return signState(state, run.stateSecret);
}
