import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { executePlan } from "../executor/execute-plan.js";
import type { Observer, ProblemListener } from "../executor/execution-options.js";
import type { PlanRunResult } from "../executor/execution-result.js";
import type { RetryOptions } from "../executor/retry.js";
import type { PlanRunState } from "../executor/resume-state.js";
import type { ApprovalDecision } from "../core/tools/guarded-call.js";
import type { Plan } from "../plan/plan-schema.js";
import type { Prompts } from "../planner/prompts.js";
import type { StrategyRun, StrategyStop } from "./strategy-run.js";

/** One execution of a plan inside a strategy run: its budget, signal, clock and events. */
export function runExecution(
  run: StrategyRun,
  input: {
    plan: Plan;
    tools: readonly Tool[];
    model?: Model;
    reuse?: PlanRunResult["steps"];
    version?: number;
    prompts?: Prompts;
    concurrency?: number;
    observe?: Observer;
    acknowledged?: readonly string[];
    retry?: RetryOptions;
    /** A paused execution to continue, with the human's decisions. */
    paused?: { state: PlanRunState; approvals?: Record<string, ApprovalDecision>; answers?: Record<string, string> };
    agentMaxSteps?: number;
    onProblem?: ProblemListener;
  },
): Promise<PlanRunResult> {
  return executePlan({
    plan: input.plan,
    tools: input.tools,
    signal: run.signal,
    budget: run.budget,
    onEvent: run.events.relay(),
    clock: run.clock,
    ...(input.model ? { model: input.model } : {}),
    ...(input.reuse ? { reuse: input.reuse } : {}),
    ...(input.version === undefined ? {} : { planVersion: input.version }),
    ...(input.prompts ? { prompts: input.prompts } : {}),
    ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
    ...(input.observe ? { observe: input.observe } : {}),
    ...(input.acknowledged ? { acknowledged: input.acknowledged } : {}),
    ...(input.paused ? { resume: input.paused.state, approvals: input.paused.approvals ?? {}, answers: input.paused.answers ?? {} } : {}),
    ...(input.retry ? { retry: input.retry } : {}),
    ...(input.agentMaxSteps === undefined ? {} : { agentMaxSteps: input.agentMaxSteps }),
    ...(input.onProblem ? { onProblem: input.onProblem } : {}),
  });
}

/** Statuses an execution ends the whole run with; `failed` is left to the strategy. */
export function executionStop(run: StrategyRun, execution: PlanRunResult): StrategyStop | undefined {
  if (execution.status === "completed" || execution.status === "failed") return undefined;
  if (execution.status === "cancelled" && run.abortCause() === "deadline")
    return { status: "deadline_exceeded", limit: "deadlineMs", reason: "the run's deadline passed" };
  return {
    status: execution.status,
    ...(execution.reason ? { reason: execution.reason } : {}),
    ...(execution.limit ? { limit: execution.limit } : {}),
  };
}
