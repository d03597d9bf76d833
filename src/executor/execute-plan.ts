import { journalTime } from "../core/clock.js";
import { maskSecrets, type SecretKeys } from "../trust/secrets.js";
import { jsonSafe } from "../core/json-safe.js";
import { previewOf } from "../core/tools/tool-output.js";
import { LearnedOrder } from "./learned-order.js";
import type { CheckedPlan } from "../plan/validate-plan.js";
import { continuedOptions, decisionEntries, settingUp } from "../journal/checkpoints.js";
import { Checkpoints } from "../journal/checkpoint-writer.js";
import type { CheckpointStore, JournalEntry } from "../journal/checkpoint-store.js";
import { runEnveloped } from "../journal/durable-envelope.js";
import type { MaybePromise } from "../core/maybe-async.js";
import { storedLatenciesKey, storedLatencyBook } from "./latency-book.js";
import { openRun, type Opened } from "./durable-run.js";
import { readPlanOptions, type ExecutePlanOptions, type PlanConfig } from "./execution-options.js";
import { finishPlanRun } from "./finish-run.js";
import type { PlanRunResult } from "./execution-result.js";
import { wakeOf } from "./wake-of.js";
import { isMissing, startPlanRun, type PlanRun } from "./live-run.js";
import { createScheduler, eventLoopTurns, type SchedulerHooks } from "./scheduler.js";
import { runStep } from "./step/run-step.js";

/**
 * Runs a fixed plan (no planner): every step starts as soon as its own dependencies have
 * succeeded and a slot is free, the longest remaining path first. Tool steps call their
 * tool with placeholders filled from earlier outputs; steps without a tool are run by an
 * inner `runAgent`. A failed step skips its dependents while independent branches go on.
 *
 * @example
 * const result = await executePlan({
 *   plan: { steps: [
 *     { id: 1, task: "orders", tool: "sql", args: { query: "select * from orders" } },
 *     { id: 2, task: "refunds", tool: "sql", args: { query: "select * from refunds" } },
 *     { id: 3, task: "write the weekly report", depends_on: [1, 2] },
 *   ] },
 *   tools: [sql],
 *   model,
 * });
 */
export async function executePlan(options: ExecutePlanOptions): Promise<PlanRunResult> {
  const opened = await openRun(options);
  if (opened.kind === "finished") return opened.result;
  return continueOpenedPlan(options, opened);
}

/** `executePlan` for a run opened already, under the lease it holds (a streamed run whose plan was written). */
export async function continueOpenedPlan(
  options: ExecutePlanOptions,
  opened: Exclude<Opened, { kind: "finished" }>,
): Promise<PlanRunResult> {
  const config = await settingUp(opened.durability, () => readPlanOptions(continuedOptions(options, opened)));
  return runPlan(config, opened);
}

/**
 * `executePlan` for a plan a planner wrote and `checkPlan` passed against the same tools: it
 * is run as checked, not checked a second time.
 */
export async function executeCheckedPlan(options: Omit<ExecutePlanOptions, "plan">, checked: CheckedPlan): Promise<PlanRunResult> {
  const opened = await openRun(options);
  if (opened.kind === "finished") return opened.result;
  const config = await settingUp(opened.durability, () =>
    readPlanOptions({ ...continuedOptions(options, opened), plan: checked.plan }, { kind: "checked", checked }),
  );
  return runPlan(config, opened);
}

async function runPlan(config: PlanConfig, opened: Exclude<Opened, { kind: "finished" }>): Promise<PlanRunResult> {
  const checkpoints = opened.durability === undefined ? undefined : new Checkpoints(opened.durability);
  let shared: Awaited<ReturnType<typeof sharedLatencies>>;
  return runEnveloped(checkpoints, {
    start: async () => {
      shared = await sharedLatencies(config, opened.durability?.store);
      const run = startPlanRun(config, { runId: opened.runId, checkpoints });
      // A durable run writes its plan before any step starts (also one that died before it had).
      if (opened.kind === "new" || opened.resume === undefined) {
        checkpoints?.write([{ kind: "plan", version: config.planVersion, plan: config.plan }]);
        // A durable run started from a saved state keeps it, so its journal alone can continue it.
        if (config.resume !== undefined) checkpoints?.write([{ kind: "paused", state: config.resume }]);
      }
      checkpoints?.write(decisionEntries(config));
      return run;
    },
    body: async (run) => {
      announcePlan(run);
      const order = new LearnedOrder(run);
      const scheduler = createScheduler(schedulerHooks(run, order.priorities));
      // Steps are told to the order only when it can learn from them.
      if (order.learning) {
        run.onStepStarted = (index, at) => order.started(index, at);
        run.onStepEnded = (index, ms, ok) => {
          if (order.ended(index, ms, ok, run.elapsed())) scheduler.reorder();
        };
      }
      run.steps.forEach((_, index) => scheduler.add(index));
      scheduler.close();
      await scheduler.done;
      return finishPlanRun(run);
    },
    kept: planRunKept,
    afterwards: () => shared?.save(),
    dispose: (run) => run.dispose(),
  });
}

/** How a plan run's result is kept: finished when it completed or failed, else paused, to continue by id. */
export function planRunKept(result: PlanRunResult): "finished" | JournalEntry {
  if (result.status === "completed" || result.status === "failed") return "finished";
  const wake = result.status === "waiting" ? wakeOf(result.state) : undefined;
  return { kind: "paused", state: result.state, status: result.status, at: journalTime(), ...(wake ? { wake } : {}) };
}

/**
 * A durable run given no latency book of its own learns from, and adds to, the one its store
 * keeps (see `storedLatencyBook`): the next run of a pipeline is ordered by what this one took.
 */
export async function sharedLatencies(
  config: PlanConfig,
  store: CheckpointStore | undefined,
): Promise<{ save(): MaybePromise<void> } | undefined> {
  if (store === undefined || config.latencies !== undefined) return undefined;
  const book = await storedLatencyBook(store, config.secretKeys);
  config.latencies = book;
  return { save: () => store.setValue(storedLatenciesKey, book.toJSON()) };
}

/** Wires the scheduler to a plan run: its records, budget, tools, events and step runner. */
export function schedulerHooks(run: PlanRun, priorities: Float64Array | undefined): SchedulerHooks {
  return {
    graph: run.graph,
    priorities,
    concurrency: run.config.concurrency,
    // A strategy's plan runs (`<id>/plan:<v>`) share their run's turn.
    slot: run.config.slots?.for(run.runId.split("/")[0]!, run.config.tenant),
    initially: (index) => {
      const status = run.records[index]!.status;
      if (status === undefined) return "open";
      // A missing optional result counts as met, as it did when the step failed.
      return status === "succeeded" || isMissing(run, index) ? "succeeded" : "settled";
    },
    toolOf: (index) => run.steps[index]!.tool,
    toolLimit: (name) => run.config.toolsByName.get(name)?.concurrency ?? Infinity,
    mayStart: () => mayStart(run),
    onReady: (index) => {
      if (run.events.active) run.events.emit({ type: "step-ready", stepId: run.steps[index]!.id }, { stepId: run.steps[index]!.id });
    },
    run: (index, done) => runStep(run, index, done),
    ...eventLoopTurns,
  };
}

export function announcePlan(run: PlanRun): void {
  run.events.emit(() => ({
    type: "plan-created",
    version: run.config.planVersion,
    steps: run.steps.map((step) => ({
      id: step.id,
      task: step.task,
      depends_on: step.depends_on,
      ...(step.tool ? { tool: step.tool } : {}),
      ...(step.model ? { model: step.model } : {}),
      ...(step.args === undefined ? {} : { args: argsForEvents(step.args, run.config.secretKeys) }),
    })),
  }));
}

/** Steps start only while the run is not aborted and its budget is not spent. */
function mayStart(run: PlanRun): boolean {
  if (run.signal.aborted) return false;
  const breach = run.budget.breach();
  if (breach && breach.limit !== "deadlineMs") run.budgetBreach ??= breach;
  return breach === undefined;
}

/** Arguments as events show them: secrets masked, and a preview of any that are long. */
function argsForEvents(args: unknown, keys: SecretKeys): unknown {
  const safe = maskSecrets(jsonSafe(args), keys);
  const text = JSON.stringify(safe) ?? "";
  return text.length <= 2_000 ? safe : previewOf(safe, 2_000);
}
