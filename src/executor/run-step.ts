import { errorMessage, shown } from "../core/errors.js";
import { isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { AgentResult } from "../react/agent-result.js";
import { runAgent } from "../react/run-agent.js";
import type { PlanProblem } from "./execution-options.js";
import { endedRecords, type PlanRun, type StepOutcome } from "./live-run.js";
import { runToolStep } from "./tool-step.js";

/*
 * A plan step's life, all in this file. A step has no status until it ends; it starts
 * (`runStep`: `startedAt`, a `step-start` event), its tool step or agent step runs (each
 * attempt counted), and `transition` gives it exactly one of:
 *   succeeded  its tool or agent returned (and no check asked for a replan)
 *   failed     its call was refused or failed for good, its agent stopped short, its
 *              arguments could not be filled, or the executor hit a bug
 *   cancelled  the run stopped while it ran, or its agent ran out of time
 *   waiting    it paused for a human (approval or answer), or it never started because a
 *              step it depends on waits (`settleLeftovers`)
 *   skipped    a step it depends on failed, was cancelled or asked for a replan, or the
 *              run stopped before it started
 * A resumed run starts every step that is not succeeded or failed again.
 */

/**
 * Runs one step and records how it ended. A step that failed or was cancelled skips every
 * step after it, each with the reason. Never rejects: the scheduler only learns success.
 * Synchronous from start to end when the step's tool and checks are.
 */
export function runStep(run: PlanRun, index: number): MaybePromise<boolean> {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.startedAt = run.elapsed();
  if (run.events.active) {
    run.events.emit(
      { type: "step-start", stepId: step.id, kind: step.tool ? "tool" : "agent", attempt: record.attempts + 1 },
      { stepId: step.id },
    );
  }
  let pending: MaybePromise<StepOutcome>;
  try {
    pending = step.tool ? runToolStep(run, index) : runAgentStep(run, index);
  } catch (error) {
    pending = unexpected(error);
  }
  // Written out rather than with `andThen`: no closures for the many steps that end at once.
  let concluded: MaybePromise<boolean>;
  try {
    concluded = isPromiseLike(pending)
      ? Promise.resolve(pending).then(
          (outcome) => concludeStep(run, index, outcome),
          (error: unknown) => concludeStep(run, index, unexpected(error)),
        )
      : concludeStep(run, index, pending);
  } catch (error) {
    return failLate(run, index, error);
  }
  return isPromiseLike(concluded) ? Promise.resolve(concluded).catch((error: unknown) => failLate(run, index, error)) : concluded;
}

/**
 * The last resort when recording a step's end threw: the step fails (if it had not ended)
 * rather than leaving the scheduler waiting for it, so a run never hangs on a bug.
 */
function failLate(run: PlanRun, index: number, error: unknown): boolean {
  if (run.records[index]!.status !== undefined) return run.records[index]!.status === "succeeded";
  try {
    return recordEnd(run, index, unexpected(error), undefined);
  } catch {
    run.records[index]!.status = "failed";
    return false;
  }
}

function unexpected(error: unknown): StepOutcome {
  return { status: "failed", error: `unexpected error in the executor: ${shown(error)}` };
}

function concludeStep(run: PlanRun, index: number, outcome: StepOutcome): MaybePromise<boolean> {
  if (outcome.status !== "succeeded" || !watched(run, index)) return recordEnd(run, index, outcome, undefined);
  return observe(run, index, outcome.output).then((concern) => recordEnd(run, index, outcome, concern));
}

function recordEnd(run: PlanRun, index: number, outcome: StepOutcome, concern: string | undefined): boolean {
  const step = run.steps[index]!;
  transition(run, index, outcome);
  if (concern !== undefined) {
    run.replanRequests.push({ stepId: step.id, reason: concern });
    skipAfter(run, index, `step ${step.id} asked for a replan: ${concern}`);
    tellProblem(run, step.id);
    return false;
  }
  if (outcome.status === "failed" || outcome.status === "cancelled") {
    skipAfter(run, index, `step ${step.id} ${outcome.status === "failed" ? "failed" : "was cancelled"}`);
  }
  if (outcome.status === "failed") tellProblem(run, step.id);
  return outcome.status === "succeeded";
}

function tellProblem(run: PlanRun, stepId: string | number): void {
  const listener = run.config.onProblem;
  if (!listener) return;
  try {
    // The records are gathered only if the listener reads them: a run where thousands of
    // steps fail would otherwise copy every record for every failure.
    let steps: PlanProblem["steps"] | undefined;
    listener({
      stepId,
      get steps() {
        return (steps ??= endedRecords(run));
      },
      replanRequests: [...run.replanRequests],
    });
  } catch (error) {
    process.emitWarning(`planloop: an onProblem listener threw and was ignored: ${shown(error)}`);
  }
}

/**
 * Skips every step after `index`. A step that has ended already was skipped by an earlier
 * failure together with everything after it, so the walk stops there: however many steps
 * fail, each step is skipped once and looked at once per dependency.
 */
function skipAfter(run: PlanRun, index: number, reason: string): void {
  const dependents = run.graph.dependents;
  const stack = [index];
  while (stack.length > 0) {
    for (const dependent of dependents.linked(stack.pop()!)) {
      if (run.records[dependent]!.status !== undefined) continue;
      transition(run, dependent, { status: "skipped", error: reason });
      stack.push(dependent);
    }
  }
}

/** Whether anything looks at this step's output; most runs skip the check entirely. */
function watched(run: PlanRun, index: number): boolean {
  const tool = run.steps[index]!.tool;
  return run.config.observe !== undefined || (tool !== undefined && run.config.toolsByName.get(tool)?.check !== undefined);
}

/** The tool's `check` and the run's `observe` hook; a throwing check counts as a concern. */
async function observe(run: PlanRun, index: number, output: unknown): Promise<string | undefined> {
  const step = run.steps[index]!;
  const check = step.tool ? run.config.toolsByName.get(step.tool)?.check : undefined;
  try {
    const concern = check?.(output) || (await run.config.observe?.({ step, output }))?.replan || undefined;
    return concern !== undefined && run.config.acknowledged.includes(concern) ? undefined : concern;
  } catch (error) {
    return `checking the output failed: ${shown(error)}`;
  }
}

/** How a step's record changes: a runner's outcome, or a step that never ran. */
export type StepTransition = StepOutcome | { status: "skipped"; error: string } | { status: "waiting"; error: string; waiting?: undefined };

/**
 * Records a step's end and announces it with a `step-end` event. The one exception is a step
 * held back by a waiting dependency (`waiting` without a paused call): it never started, so
 * it is recorded as waiting and not announced.
 */
export function transition(run: PlanRun, index: number, outcome: StepTransition): void {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.status = outcome.status;
  if (outcome.status === "waiting" && outcome.waiting === undefined) {
    record.error = outcome.error;
    return;
  }
  if (record.startedAt !== undefined) record.endedAt = run.elapsed();
  if (outcome.status === "succeeded") record.output = outcome.output;
  else record.error = outcome.error;
  if (outcome.status === "waiting") run.waiting.set(index, outcome.waiting);
  if (!run.events.active) return;
  run.events.emit(
    () => ({
      type: "step-end",
      stepId: step.id,
      status: outcome.status,
      attempts: record.attempts,
      durationMs: record.startedAt === undefined ? 0 : record.endedAt! - record.startedAt,
      ...(outcome.status === "succeeded" ? { preview: previewOf(outcome.output) } : { error: outcome.error }),
    }),
    { stepId: step.id },
  );
}

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
      ...(paused?.kind === "agent" ? { resume: paused.agentState, approvals: run.config.approvals, answers: run.config.answers } : {}),
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
