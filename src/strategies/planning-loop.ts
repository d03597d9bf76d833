import type { PlanRunResult } from "../executor/execution-result.js";
import type { PlanRunState } from "../executor/resume-state.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import type { PlanAttempt } from "../planner/make-plan.js";
import type { Plan } from "../plan/plan-schema.js";
import { executionStop } from "./execution.js";
import type { PlanningStrategyName, PlanStrategyState } from "./plan-strategy-state.js";
import { finishPlanStrategy, pausedState, planningFailure, type Ending } from "./planning.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import type { StrategyRun, StrategyStop } from "./strategy-run.js";

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
