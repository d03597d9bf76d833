import { callDigest } from "../../core/tools/approvals.js";
import { errorMessage } from "../../core/errors.js";
import { textKeyed } from "../../core/records.js";
import type { ApprovalDecision } from "../../core/tools/guarded-call.js";
import { stepKey } from "../../plan/plan-schema.js";
import type { AgentResult } from "../../react/agent-result.js";
import { runAgent } from "../../react/run-agent.js";
import { deadlineOf, idempotencyKeyOf, ownerOf, resultFor, type PlanRun, type StepOutcome } from "../live-run.js";
import type { WaitingStep } from "../resume-state.js";
import type { AgentJob } from "../step-runner.js";
import type { ContextPolicy } from "../../react/context-window.js";

/**
 * Runs an agent step: an inner ReAct loop with the step's own step budget, drawing tokens,
 * cost, tool calls and time from the run's budget. Its events carry the step's id.
 */
export async function runAgentStep(run: PlanRun, index: number): Promise<StepOutcome> {
  const step = run.steps[index]!;
  const paused = run.waiting.get(index);
  run.waiting.delete(index);
  run.records[index]!.attempts += 1;
  const dependencies = dependenciesOf(run, index);
  let result: Pick<AgentResult, "status" | "output" | "reason" | "limit" | "pending" | "state">;
  try {
    result = run.config.runner
      ? await remoteAgentStep(run, index, paused)
      : await runAgent({
          model: (step.model === undefined ? undefined : run.config.models.get(step.model)) ?? run.config.model!,
          tools: run.config.tools,
          task: run.config.prompts.agentStep({ step, dependencies }),
          maxSteps: step.budget?.maxSteps ?? run.config.agentMaxSteps,
          context: run.config.agentContext,
          ...(run.config.agentWaitTools ? { waitTools: true } : {}),
          secretKeys: run.config.secretKeys,
          tenant: run.config.tenant,
          approvalExpiresInMs: run.config.approvalExpiresInMs,
          budget: run.budget.child(),
          signal: run.signal,
          clock: run.config.clock,
          onEvent: run.events.relay({ stepId: step.id }),
          ...(paused?.kind === "agent" ? { resume: paused.agentState, ...innerDecisions(run, step.id) } : {}),
          // A durable run keeps the step's loop as a run of its own, `<runId>/<step id>`: after a
          // crash it continues turn by turn, and its tools get keys of their own.
          ...(run.checkpoints
            ? { store: run.checkpoints.durability.store, runId: idempotencyKeyOf(run, index), ...run.checkpoints.innerOptions() }
            : {}),
        });
  } catch (error) {
    return { status: "failed", error: `the step's agent failed: ${errorMessage(error)}` };
  }
  switch (result.status) {
    case "completed":
      return { status: "succeeded", output: result.output };
    case "waiting": {
      const suffix = `@${stepKey(step.id)}`;
      const pending = (result.pending ?? []).map((call) => ({ ...call, id: `${call.id}${suffix}`, stepId: step.id }));
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

/** An agent step's loop on a worker: its usage is charged to the run when it comes back. */
async function remoteAgentStep(run: PlanRun, index: number, paused: WaitingStep | undefined) {
  const step = run.steps[index]!;
  const dependencies = dependenciesOf(run, index);
  const deadlineAt = deadlineOf(run.budget)();
  const task = run.config.prompts.agentStep({ step, dependencies });
  const result = await run.config.runner!.runAgent(
    {
      kind: "agent",
      runId: run.runId,
      stepKey: run.graph.keys[index]!,
      attempt: run.records[index]!.attempts,
      digest: callDigest("agent", { task, model: step.model ?? null }),
      ...(run.incarnation === undefined ? {} : { incarnation: run.incarnation }),
      ...(ownerOf(run) === undefined ? {} : { owner: ownerOf(run) }),
      task,
      maxSteps: step.budget?.maxSteps ?? run.config.agentMaxSteps,
      budget: run.budget.remainingLimits(),
      ...portableContext(run.config.agentContext),
      ...(step.model === undefined ? {} : { model: step.model }),
      ...(run.config.tenant === undefined ? {} : { tenant: run.config.tenant }),
      ...(deadlineAt === undefined ? {} : { deadlineAt }),
      ...(paused?.kind === "agent" ? { resume: paused.agentState, ...innerDecisions(run, step.id) } : {}),
    },
    run.signal,
    run.events.relay({ stepId: step.id }),
  );
  run.budget.charge(result.usage);
  return result as Pick<AgentResult, "status" | "output" | "reason" | "limit" | "pending" | "state">;
}

/** The parts of a context policy that can travel to a worker (its functions cannot). */
function portableContext(policy: ContextPolicy | undefined): { context?: NonNullable<AgentJob["context"]> } {
  if (policy === undefined) return {};
  const keep = policy.keep === "recent" || policy.keep === "summarize" ? policy.keep : undefined;
  return {
    context: {
      maxTokens: policy.maxTokens,
      ...(keep === undefined ? {} : { keep }),
      ...(policy.maxObservationTokens === undefined ? {} : { maxObservationTokens: policy.maxObservationTokens }),
    },
  };
}

/**
 * The decisions meant for the calls an agent step's inner loop waits for: the run's keys are
 * `<inner id>@<step id>`; the inner loop knows its calls by the inner id.
 */
function innerDecisions(
  run: PlanRun,
  stepId: string | number,
): { approvals: Record<string, ApprovalDecision>; answers: Record<string, string> } {
  const suffix = `@${stepKey(stepId)}`;
  const inner = <T>(decided: Record<string, T>): Record<string, T> => {
    const found = textKeyed<T>();
    for (const key of Object.keys(decided)) if (key.endsWith(suffix)) found[key.slice(0, -suffix.length)] = decided[key]!;
    return found;
  };
  return { approvals: inner(run.config.approvals), answers: inner(run.config.answers) };
}

/** The steps an agent step depends on, with their results (a missing one marked). */
function dependenciesOf(run: PlanRun, index: number): Array<{ step: PlanRun["steps"][number]; output: unknown }> {
  return run.graph.dependencies.list(index).map((need) => ({ step: run.steps[need]!, output: resultFor(run, need) }));
}
