import { randomUUID } from "node:crypto";
import { raceAbort } from "../core/abort.js";
import { errorMessage } from "../core/errors.js";
import { addStep, buildPlanGraph, sinksOf } from "../plan/graph/plan-graph.js";
import { stepKey, type PlanInput } from "../plan/plan-schema.js";
import { readPlanStep } from "../plan/read-plan.js";
import { describeIssues } from "../core/tools/tool-guard.js";
import { streamedStepErrors } from "../plan/validate-plan.js";
import { announcePlan, schedulerHooks } from "./execute-plan.js";
import { readPlanOptions, type ExecutePlanOptions } from "./execution-options.js";
import { finishPlanRun } from "./finish-run.js";
import type { PlanRunResult } from "./execution-result.js";
import { liveRecord, startPlanRun, type PlanRun } from "./live-run.js";
import { createScheduler, type Scheduler } from "./scheduler.js";
import { transition } from "./run-step.js";

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
  const empty = { steps: [] };
  const config = readPlanOptions({ ...options, plan: empty }, { kind: "streamed", plan: empty, graph: buildPlanGraph(empty) });
  const run = startPlanRun(config, { runId: options.runId ?? randomUUID() });
  const scheduler = createScheduler(schedulerHooks(run, undefined));

  try {
    try {
      // Each read is raced against the run's signal: a stream that stalls cannot outlive the run.
      const steps = options.steps[Symbol.asyncIterator]();
      for (;;) {
        const next = await raceAbort(steps.next(), run.signal).catch((error: unknown) => {
          if (run.signal.aborted) return { done: true as const, value: undefined };
          throw error;
        });
        if (next.done || run.signal.aborted) break;
        takeStep(run, scheduler, next.value);
      }
      if (run.signal.aborted) void steps.return?.()?.then(undefined, () => {});
    } catch (error) {
      run.streamProblems.push(`the plan stream broke: ${errorMessage(error)}`);
    }
    scheduler.close();
    await scheduler.done;
    run.graph.sinks = sinksOf(run.graph);
    announcePlan(run);
    return finishPlanRun(run);
  } finally {
    run.dispose();
  }
}

function takeStep(run: PlanRun, scheduler: Scheduler, input: StepInput): void {
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
  run.records.push(liveRecord());
  const problems = streamedStepErrors(step, index, { graph: run.graph, tools: run.config.tools, parsedArgs: run.config.parsedArgs });
  const blocked = needs.find((need) => run.records[need]!.status !== undefined && run.records[need]!.status !== "succeeded");
  if (problems.length > 0) transition(run, index, { status: "failed", error: problems.map((problem) => problem.message).join("; ") });
  else if (blocked !== undefined) transition(run, index, { status: "skipped", error: `step ${run.steps[blocked]!.id} did not succeed` });
  scheduler.add(index);
}
