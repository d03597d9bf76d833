import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";
import { executeCheckedPlan, executePlan } from "../executor/execute-plan.js";
import type { ExecutePlanOptions, ExecutionSettings, Observer, ProblemListener } from "../executor/execution-options.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import type { PlanRunState } from "../executor/resume-state.js";
import type { Plan } from "../plan/plan-schema.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import type { StrategyRun, StrategyStop } from "./strategy-run.js";

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
export function runExecution(run: StrategyRun, input: ExecutionInput): Promise<PlanRunResult> {
  const options: Omit<ExecutePlanOptions, "plan"> = {
    tools: input.tools,
    model: input.model,
    concurrency: input.concurrency,
    retry: input.retry,
    agentMaxSteps: input.agentMaxSteps,
    prompts: input.prompts,
    reuse: input.reuse,
    planVersion: input.version,
    observe: input.observe,
    acknowledged: input.acknowledged,
    onProblem: input.onProblem,
    resume: input.paused?.state,
    approvals: input.paused?.approvals,
    answers: input.paused?.answers,
    signal: run.signal,
    budget: run.budget,
    onEvent: run.events.relay(),
    clock: run.clock,
  };
  return input.checked === undefined ? executePlan({ ...options, plan: input.plan }) : executeCheckedPlan(options, input.checked);
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
