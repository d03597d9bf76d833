import { shown } from "../core/errors.js";
import { isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { previewOf } from "../core/tools/tool-output.js";
import { runAgentStep } from "./agent-step.js";
import type { PlanProblem } from "./plan-options.js";
import { endedRecords, type PlanRun, type StepOutcome } from "./plan-run.js";
import { runToolStep } from "./tool-step.js";

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
    run.events.emit({ type: "step-start", stepId: step.id, kind: step.tool ? "tool" : "agent", attempt: record.attempts + 1 }, { stepId: step.id });
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
  endStep(run, index, outcome);
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
    for (let link = dependents.first(stack.pop()!); link !== -1; link = dependents.next(link)) {
      const dependent = dependents.target(link);
      if (run.records[dependent]!.status !== undefined) continue;
      endStep(run, dependent, { status: "skipped", error: reason });
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

/** Records a step's end (skipped steps included) and announces it. */
export function endStep(run: PlanRun, index: number, outcome: StepOutcome | { status: "skipped"; error: string }): void {
  const step = run.steps[index]!;
  const record = run.records[index]!;
  record.status = outcome.status;
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
