import { errorMessage } from "../core/errors.js";
import { runAgent } from "../react/run-agent.js";
import type { AgentResult } from "../react/agent-result.js";
import type { PlanRun, StepOutcome } from "./plan-run.js";


/**
 * Runs an agent step: an inner ReAct loop with the step's own step budget, drawing tokens,
 * cost, tool calls and time from the run's budget. Its events carry the step's id.
 */
export async function runAgentStep(run: PlanRun, index: number): Promise<StepOutcome> {
  const step = run.steps[index]!;
  const paused = run.waiting.get(index);
  run.waiting.delete(index);
  run.records[index]!.attempts += 1;
  const dependencies = run.graph.dependencies.list(index).map((need) => ({ step: run.steps[need]!, output: run.records[need]!.output }));
  let result: AgentResult;
  try {
    result = await runAgent({
      model: run.config.model!,
      tools: run.config.tools,
      task: run.config.prompts.agentStep({ step, dependencies }),
      maxSteps: step.budget?.maxSteps ?? run.config.agentMaxSteps,
      budget: run.budget.child(),
      signal: run.signal,
      clock: run.config.clock,
      onEvent: run.events.relay({ stepId: step.id }),
      ...(paused?.kind === "agent"
        ? { resume: paused.agentState, approvals: run.config.approvals, answers: run.config.answers }
        : {}),
    });
  } catch (error) {
    return { status: "failed", error: `the step's agent failed: ${errorMessage(error)}` };
  }
  switch (result.status) {
    case "completed":
      return { status: "succeeded", output: result.output };
    case "waiting": {
      const pending = (result.pending ?? []).map((call) => ({ ...call, stepId: step.id }));
      return { status: "waiting", error: result.reason ?? "waiting", waiting: { kind: "agent", pending, agentState: result.state! } };
    }
    case "budget_exceeded":
      // The step's budget has no limits of its own: the run's budget is what ran out.
      run.budgetBreach ??= { limit: result.limit ?? "maxTokens", message: result.reason ?? "the run's budget is spent" };
      return { status: "failed", error: `the step's agent stopped with budget_exceeded: ${result.reason}` };
    case "cancelled":
    case "deadline_exceeded":
      return { status: "cancelled", error: result.reason ?? result.status };
    default:
      return { status: "failed", error: `the step's agent stopped with ${result.status}${result.reason ? `: ${result.reason}` : ""}` };
  }
}
