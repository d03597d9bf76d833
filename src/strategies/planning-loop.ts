import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import { executeCheckedPlan, executePlan } from "../executor/execute-plan.js";
import {
  executionSettingsOf,
  type ExecutePlanOptions,
  type ExecutionSettings,
  type Observer,
  type ProblemListener,
} from "../executor/execution-options.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import type { PlanRunState } from "../executor/resume-state.js";
import type { PlanAttempt } from "../planner/make-plan.js";
import { stepKey, type Plan } from "../plan/plan-schema.js";
import { ownValue } from "../core/records.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import { createPlanStrategyState, type PlanningStrategyName, type PlanReviewState, type PlanStrategyState } from "./plan-strategy-state.js";
import { InvalidOptionsError } from "../core/errors.js";
import { checkPlan } from "../plan/validate-plan.js";
import { reusableResults } from "../replan/merge-plan.js";
import type { PendingPlan, ReviewPlanOption } from "./plan-review.js";
import { isPlanReviewKey, planReviewing } from "./plan-review-step.js";
import type { PlanStrategyResult } from "./strategy-result.js";
import { signState } from "../trust/state-signature.js";
import { finishStrategy, type StrategyRun, type StrategyStop } from "./strategy-run.js";
import { groundEnding } from "./ground-answer.js";
import { stepViews } from "./step-views.js";
import type { Prompts } from "../planner/prompts.js";
import type { Provenance } from "../grounding/claim-report.js";

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
  /** What to run (a reviewed plan is a checked plan); undefined when a paused execution is continued. */
  source: Source | CheckedPlan | undefined;
  /** A paused execution to continue, with the human's decisions and the plan it ran. */
  paused: ({ state: PlanRunState; plan: Plan } & HumanDecisions) | undefined;
  /** The plan's version number (1 for the first plan). */
  version: number;
  /** Concerns the plans so far already answer (see `acknowledged` in `executePlan`). */
  acknowledged: readonly string[];
  /** The plan that ran before this one and its results, which this plan may keep. */
  previous: RanPlan | undefined;
}

/** A plan and the records of its steps. */
export interface RanPlan {
  plan: Plan;
  steps: PlanRunResult["steps"];
}

/** A request for a new plan: `plan` and `steps` are the plan it replaces and its results. */
export interface ReplanRequest extends RanPlan {
  /** The execution that asked for it; undefined when a reviewer rejected `plan` before it ran. */
  execution: PlanRunResult | undefined;
  problem: string;
  /** Counts this one. */
  replans: number;
}

/** The parts that make Plan-and-Execute, ReWOO and LLMCompiler different. */
export interface PlanningStrategy<Source> {
  name: PlanningStrategyName;
  /** New plans allowed after the first. */
  maxReplans: number;
  /** New plans allowed for plans a reviewer rejected (they count as replans). */
  maxRevisions: number;
  /** The first plan. */
  plan(): Promise<Planned<Source>>;
  /** The whole plan a source makes, for review before anything runs (a streamed plan is read to its end). */
  written(source: Source | CheckedPlan): Promise<Planned<CheckedPlan>>;
  execute(request: ExecutionRequest<Source>): Promise<PlanRunResult>;
  /** After an execution that ran to its end (completed or failed). */
  judge(execution: PlanRunResult): Promise<NextMove>;
  replan(request: ReplanRequest): Promise<Planned<Source>>;
  /** Waits for work the strategy started on the side (an early replan): nothing outlives the run. */
  settle?(): Promise<void>;
  /** Who writes the answer: asked again to repair unsupported claims (`grounding`). */
  answerer: { model: Model; prompts: Prompts };
}

/** What the loop is given besides the strategy: a resumed run, and how new plans are reviewed. */
export interface LoopInput<State extends PlanStrategyState> {
  resumed: { saved: State; decisions: HumanDecisions } | undefined;
  review: { option: ReviewPlanOption; tools: readonly Tool[]; approvals: HumanDecisions["approvals"] };
}

/**
 * The one loop of every planning strategy (seed 001 §5-§7): plan, review, execute, then
 * answer, replan or stop, until an answer stands, a stop comes, or no replans are left. A
 * run resumed from `saved` first continues its paused execution or review. Every ending is
 * turned into a result here.
 */
export async function runPlanningLoop<Source, State extends PlanStrategyState>(
  run: StrategyRun,
  strategy: PlanningStrategy<Source>,
  input: LoopInput<State>,
): Promise<PlanStrategyResult<State>> {
  try {
    return await planningLoop(run, strategy, input);
  } finally {
    await strategy.settle?.();
  }
}

async function planningLoop<Source, State extends PlanStrategyState>(
  run: StrategyRun,
  strategy: PlanningStrategy<Source>,
  input: LoopInput<State>,
): Promise<PlanStrategyResult<State>> {
  const { resumed } = input;
  const saved = resumed?.saved;
  const versions: Plan[] = [...(saved?.planVersions ?? [])];
  const acknowledged: string[] = [...(saved?.acknowledged ?? [])];
  let replans = saved?.replans ?? 0;
  let previous: RanPlan | undefined = saved?.review?.previous;
  let reason = saved?.review?.pending.reason;
  const finish = (ending: Omit<Ending<State>, "versions" | "replans">) => finishPlanStrategy<State>(run, { ...ending, versions, replans });
  const reviewing = planReviewing(run, input.review);
  let source: Source | CheckedPlan | undefined;
  let paused: ExecutionRequest<Source>["paused"];
  if (saved?.review) source = resumedReview(saved.review.pending, input.review.tools);
  else if (resumed) paused = { state: saved!.execution!, plan: versions.at(-1)!, ...callDecisions(resumed.decisions) };
  else {
    const first = await strategy.plan();
    if (!first.ok) return finish(planningFailure(first));
    source = first.source;
  }
  for (;;) {
    if (reviewing && source !== undefined) {
      const written = await strategy.written(source);
      if (!written.ok) return finish({ steps: previous?.steps, ...planningFailure(written) });
      const version = replans + 1;
      const outcome = await reviewing.review(written.source, { version, previous: previous?.plan, reason });
      if (outcome.kind === "waiting") {
        const stop: StrategyStop = { status: "waiting", reason: `plan ${version} waits for review` };
        const review = { pending: outcome.pending, ...(previous ? { previous } : {}) };
        return finish({
          steps: previous?.steps,
          stop,
          pending: [outcome.pending],
          state: reviewState(run, strategy.name, { versions, replans, acknowledged, review }) as State,
        });
      }
      if (outcome.kind === "invalid") {
        const stop: StrategyStop = { status: "failed", reason: `the reviewer's edited plan ${version} is invalid` };
        return finish({ steps: previous?.steps, stop, errors: outcome.errors });
      }
      if (outcome.kind === "rejected") {
        const rejected = written.source.plan;
        versions.push(rejected);
        const problem = `the reviewer rejected plan ${version}: ${outcome.feedback}`;
        if (replans >= strategy.maxRevisions)
          return finish({ steps: previous?.steps, stop: { status: "failed", reason: `${problem} (no new plans left after ${replans})` } });
        replans += 1;
        const steps = previous ? reusableResults(previous.plan, previous.steps, rejected) : {};
        const next = await strategy.replan({ execution: undefined, plan: rejected, steps, problem, replans });
        if (!next.ok) return finish({ steps: previous?.steps, ...planningFailure(next) });
        source = next.source;
        reason = problem;
        continue;
      }
      source = outcome.checked;
    }
    const execution = await strategy.execute({ source, paused, version: replans + 1, acknowledged, previous });
    if (!paused) versions.push(execution.plan);
    paused = undefined;
    const stopped = executionStop(run, execution);
    if (stopped) {
      const state = pausedState(run, strategy.name, { versions, replans, acknowledged, execution }) as State | undefined;
      return finish({ steps: execution.steps, stop: stopped, execution, ...(state ? { state } : {}) });
    }
    previous = { plan: execution.plan, steps: execution.steps };
    const move = await strategy.judge(execution);
    const { output } = move;
    const withOutput = output === undefined ? {} : { output };
    const answered = { results: stepViews(execution.plan, execution.steps), answerer: strategy.answerer };
    const grounded = async (ending: Omit<Ending<State>, "versions" | "replans">) => finish(await groundEnding(run, ending, answered));
    if (move.kind === "answer") return grounded({ steps: execution.steps, stop: { status: "completed" }, ...withOutput });
    if (move.kind === "stop") return grounded({ steps: execution.steps, stop: move.stop, ...withOutput });
    if (replans >= strategy.maxReplans) {
      const stop: StrategyStop = {
        status: output === undefined ? "failed" : "incomplete",
        reason: `${move.problem} (no replans left after ${replans})`,
      };
      return grounded({ steps: execution.steps, stop, ...withOutput });
    }
    for (const request of execution.replanRequests) acknowledged.push(request.reason);
    replans += 1;
    const next = await strategy.replan({ execution, plan: execution.plan, steps: execution.steps, problem: move.problem, replans });
    if (!next.ok) return finish({ steps: execution.steps, ...planningFailure(next) });
    source = next.source;
    reason = move.problem;
  }
}

/** The plan a resumed run's review waits on, checked again against the tools. */
function resumedReview(pending: PendingPlan, tools: readonly Tool[]): CheckedPlan {
  const checked = checkPlan(pending.plan, { tools });
  if (!checked.ok) throw new InvalidOptionsError(`resume: the plan waiting for review does not fit the tools given`);
  return checked;
}

/** The decisions for a paused execution's calls: those on plans are the review's. */
function callDecisions(decisions: HumanDecisions): HumanDecisions {
  if (decisions.approvals === undefined) return decisions;
  return { ...decisions, approvals: Object.fromEntries(Object.entries(decisions.approvals).filter(([key]) => !isPlanReviewKey(key))) };
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
  const options = await executionOptions(run, input);
  return input.checked === undefined ? executePlan({ ...options, plan: input.plan }) : executeCheckedPlan(options, input.checked);
}

/**
 * What an execution inside a strategy run is given: the strategy's settings, this
 * execution's plan version, reuse and decisions, and the run's budget, signal, clock and
 * events. Every planning strategy's executions are made from this one object.
 */
export async function executionOptions(
  run: StrategyRun,
  input: Omit<ExecutionInput, "plan" | "checked">,
): Promise<Omit<ExecutePlanOptions, "plan">> {
  return {
    ...executionSettingsOf(input),
    tools: input.tools,
    model: input.model,
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
    secretKeys: run.secretKeys,
    approvalExpiresInMs: run.approvalExpiresInMs,
  };
}

/**
 * A durable strategy's plan runs are kept as runs of their own, one per plan version; the
 * human decisions given with the call go to the one that stopped to wait for them.
 */
async function durablePlanRun(
  run: StrategyRun,
  version: number,
): Promise<Pick<ExecutePlanOptions, "store" | "runId" | "lease" | "keepModelCalls" | "approvals" | "answers">> {
  if (run.durability === undefined) return {};
  const runId = run.durability.planRunId(version);
  const inner = run.durability.checkpoints.innerOptions();
  return { store: run.durability.store, runId, ...inner, ...(await run.durability.decisionsFor(runId)) };
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
  steps?: PlanRunResult["steps"] | undefined;
  replans: number;
  stop: StrategyStop;
  errors?: string[];
  execution?: PlanRunResult;
  output?: string;
  /** For `waiting` on a plan review: the plan (a paused execution's calls come from `execution`). */
  pending?: PendingPlan[];
  /** For `waiting`: what `resume` needs. */
  state?: State;
  /** The answer's claims and their verdicts (`grounding`). */
  provenance?: Provenance;
}

/** The result of a planning strategy from how it ended. */
export function finishPlanStrategy<State extends PlanStrategyState>(run: StrategyRun, ending: Ending<State>): PlanStrategyResult<State> {
  const { versions, stop, output, errors, execution } = ending;
  const missing = missingSteps(versions.at(-1), ending.steps ?? {});
  return finishStrategy<PlanStrategyResult<State>>(run, {
    status: stop.status,
    ...(output === undefined ? {} : { output }),
    ...(stop.reason === undefined ? {} : { reason: stop.reason }),
    ...(stop.limit === undefined ? {} : { limit: stop.limit }),
    ...(execution?.pending ? { pending: execution.pending } : {}),
    ...(ending.pending ? { pending: ending.pending } : {}),
    ...(errors ? { errors } : {}),
    ...(missing.length > 0 ? { missing } : {}),
    ...(ending.state ? { state: ending.state } : {}),
    ...(ending.provenance ? { provenance: ending.provenance } : {}),
    ...(versions.length > 0 ? { plan: versions.at(-1)! } : {}),
    planVersions: versions,
    stepResults: ending.steps ?? {},
    replans: ending.replans,
    steps: run.trace.filter((event) => event.type === "step-start").length,
  });
}

/** The optional steps of `plan` that failed: what the answer had to do without. */
function missingSteps(plan: Plan | undefined, steps: PlanRunResult["steps"]): Array<string | number> {
  if (plan === undefined) return [];
  return plan.steps
    .filter((step) => step.optional === true && ownValue(steps, stepKey(step.id))?.status === "failed")
    .map((step) => step.id);
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
  return signState(state, run.stateSecret, run.runId);
}

/** What `resume` needs to continue a run that waits for a plan's review. */
function reviewState<Strategy extends PlanningStrategyName>(
  run: StrategyRun,
  strategy: Strategy,
  waiting: { versions: Plan[]; replans: number; acknowledged: string[]; review: PlanReviewState },
): PlanStrategyState<Strategy> {
  const state = createPlanStrategyState(strategy, {
    planVersions: waiting.versions,
    replans: waiting.replans,
    acknowledged: waiting.acknowledged,
    review: waiting.review,
    usage: run.budget.spent,
    elapsedMs: run.budget.elapsedMs(),
  });
  return signState(state, run.stateSecret, run.runId);
}
