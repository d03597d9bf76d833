import { raceAbort } from "../core/abort.js";
import { errorMessage } from "../core/errors.js";
import { addStep, buildPlanGraph, sinksOf } from "../plan/graph/plan-graph.js";
import { stepKey, type PlanInput } from "../plan/plan-schema.js";
import { readPlanStep } from "../plan/read-plan.js";
import { describeIssues } from "../core/tools/tool-guard.js";
import { streamedStepErrors } from "../plan/validate-plan.js";
import { announcePlan, continueOpenedPlan, planRunKept, schedulerHooks, sharedLatencies } from "./execute-plan.js";
import { runEnveloped } from "../journal/durable-envelope.js";
import { readPlanOptions, type ExecutePlanOptions } from "./execution-options.js";
import { finishPlanRun } from "./finish-run.js";
import type { PlanRunResult } from "./execution-result.js";
import { liveRecord, restoredRecord, startPlanRun, type PlanRun } from "./live-run.js";
import { chargeStoredUsage, openStoredRun, settingUp } from "../journal/checkpoints.js";
import { Checkpoints } from "../journal/checkpoint-writer.js";
import type { JournalEntry } from "../journal/checkpoint-store.js";
import { ownValue, textKeyed } from "../core/records.js";
import type { StepRecord } from "../plan/step-record.js";
import { stateFromJournal } from "./durable-run.js";
import { createScheduler, type Scheduler } from "./scheduler.js";
import { transition } from "./step/run-step.js";

type StepInput = PlanInput["steps"][number];

export interface ExecutePlanStreamOptions extends Omit<ExecutePlanOptions, "plan" | "resume" | "reuse"> {
  /** Steps as a planner writes them; a step may only depend on steps that came before it. */
  steps: AsyncIterable<StepInput>;
}

/**
 * Runs a plan while it is still being written (LLMCompiler's Task Fetching Unit): each
 * step is checked as it arrives and starts as soon as its dependencies are done, while the
 * planner goes on writing. A step that fails its checks fails alone, skipping its
 * dependents; if the stream itself breaks, what arrived still runs and the result says why.
 */
export async function executePlanStream(options: ExecutePlanStreamOptions): Promise<PlanRunResult> {
  const opened = await openStoredRun(options, "executePlan");
  if (opened.kind === "finished") {
    chargeStoredUsage(options, opened.result);
    return opened.result as PlanRunResult;
  }
  const written = opened.kind === "continue" ? stateFromJournal(opened.journal) : undefined;
  if (opened.kind === "continue" && written !== undefined) {
    // The stream had ended and its plan was written: the run goes on as a plan run, under the lease it holds.
    const { steps: _, ...rest } = options;
    return continueOpenedPlan(
      { ...rest, plan: written.plan },
      { kind: "continue", runId: opened.runId, durability: opened.durability, resume: written },
    );
  }
  const empty = { steps: [] };
  const config = await settingUp(opened.durability, () =>
    readPlanOptions({ ...options, plan: empty }, { kind: "streamed", plan: empty, graph: buildPlanGraph(empty) }),
  );
  const checkpoints = opened.durability === undefined ? undefined : new Checkpoints(opened.durability);
  let shared: Awaited<ReturnType<typeof sharedLatencies>>;
  return runEnveloped(checkpoints, {
    start: async () => {
      shared = await sharedLatencies(config, opened.durability?.store);
      return startPlanRun(config, { runId: opened.runId, checkpoints });
    },
    body: async (run) => {
      // Steps that ended before the process died: the stream is read again (from its kept text) and they are not run again.
      const ended = opened.kind === "continue" ? endedSteps(opened.journal) : undefined;
      const scheduler = createScheduler(schedulerHooks(run, undefined));
      await readSteps(run, scheduler, options.steps, ended);
      scheduler.close();
      await scheduler.done;
      run.graph.sinks = sinksOf(run.graph);
      announcePlan(run);
      const result = finishPlanRun(run);
      // The plan as it arrived, before the result is kept.
      checkpoints?.write([{ kind: "plan", version: config.planVersion, plan: result.plan }]);
      return result;
    },
    kept: planRunKept,
    afterwards: () => shared?.save(),
    dispose: (run) => run.dispose(),
  });
}

/** Takes each step as the stream gives it; each read is raced against the run's signal, so a stream that stalls cannot outlive the run. */
async function readSteps(
  run: PlanRun,
  scheduler: Scheduler,
  stream: AsyncIterable<StepInput>,
  ended: Record<string, StepRecord> | undefined,
): Promise<void> {
  try {
    const steps = stream[Symbol.asyncIterator]();
    for (;;) {
      const next = await raceAbort(steps.next(), run.signal).catch((error: unknown) => {
        if (run.signal.aborted) return { done: true as const, value: undefined };
        throw error;
      });
      if (next.done || run.signal.aborted) break;
      takeStep(run, scheduler, next.value, ended);
    }
    if (run.signal.aborted) void steps.return?.()?.then(undefined, () => {});
  } catch (error) {
    run.streamProblems.push(`the plan stream broke: ${errorMessage(error)}`);
  }
}

/** The last record of every step that ended, by step key. */
function endedSteps(journal: readonly JournalEntry[]): Record<string, StepRecord> {
  const ended = textKeyed<StepRecord>();
  for (const entry of journal) if (entry.kind === "step-end") ended[entry.stepKey] = entry.record as StepRecord;
  return ended;
}

function takeStep(run: PlanRun, scheduler: Scheduler, input: StepInput, ended: Record<string, StepRecord> | undefined): void {
  const parsed = readPlanStep(input);
  const taken = parsed.success && run.graph.indexOf.has(stepKey(parsed.data.id));
  if (!parsed.success || taken) {
    // A malformed step, or one whose id is taken, cannot join the graph at all.
    const error = parsed.success
      ? `step id ${parsed.data.id} is used twice`
      : `a step has the wrong shape: ${describeIssues(parsed.error, "the step")}`;
    run.events.emit({ type: "plan-invalid", attempt: 1, errors: [error] });
    run.streamProblems.push(error);
    return;
  }
  const step = parsed.data;
  const needs = step.depends_on.map((id) => run.graph.indexOf.get(stepKey(id))).filter((need): need is number => need !== undefined);
  const index = addStep(run.graph, stepKey(step.id), needs);
  run.steps.push(step);
  run.records.push(ended === undefined ? liveRecord() : restoredRecord(ownValue(ended, stepKey(step.id))));
  if (run.records[index]!.status !== undefined) {
    scheduler.add(index); // ended before a restart: settled already
    return;
  }
  const problems = streamedStepErrors(step, index, { graph: run.graph, tools: run.config.tools, parsedArgs: run.config.parsedArgs });
  const blocked = needs.find((need) => run.records[need]!.status !== undefined && run.records[need]!.status !== "succeeded");
  if (problems.length > 0) transition(run, index, { status: "failed", error: problems.map((problem) => problem.message).join("; ") });
  else if (blocked !== undefined) transition(run, index, { status: "skipped", error: `step ${run.steps[blocked]!.id} did not succeed` });
  scheduler.add(index);
}
