import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError, RunBusyError, shown } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import { keptInCandidates, type CheckpointStore } from "../journal/checkpoint-store.js";
import { executePlan } from "../executor/execute-plan.js";
import { RunLease } from "../journal/run-lease.js";
import type { ExecutePlanOptions } from "../executor/execution-options.js";

/** A run `wakeDueRuns` is to continue: its id (the outermost run) and the entry point that started it. */
export interface DueRun {
  runId: string;
  entry: string;
}

export interface WakeOptions {
  /** The store the waiting runs are kept in. */
  store: CheckpointStore;
  /** The tools the runs were started with. */
  tools?: readonly Tool[] | undefined;
  /** Runs the plans' agent steps. */
  model?: Model | undefined;
  /**
   * Continues a run started by another entry point than `executePlan` (a strategy): call it
   * again with the same `store` and `runId`. Its result is reported as it is.
   */
  continueRun?: ((run: DueRun) => Promise<{ status: string }>) | undefined;
  /** The `executePlan` options the runs need besides these (a `stateSecret`, `guard`, `models`, …). */
  planOptions?: Omit<ExecutePlanOptions, "plan" | "store" | "runId" | "tools" | "model" | "clock" | "lease"> | undefined;
  /** How many runs are continued at once (default 4). */
  concurrency?: number | undefined;
  /** At most this many runs are woken in one pass (default 100): the rest in the next. */
  limit?: number | undefined;
  clock?: Clock | undefined;
}

/** What one pass did: the runs continued (and how each stands now), the busy ones, and the ones that failed to continue. */
export interface WakeReport {
  woken: Array<{ runId: string; status: string }>;
  /** Another process holds the run (another `serve`, or the run's owner still): it continues it. */
  busy: string[];
  failed: Array<{ runId: string; error: string }>;
}

/**
 * One pass over the store: every run whose wait step's time has come, or whose event was
 * sent, is continued under its lease (a run another process holds is left to it), at most
 * `concurrency` at once. Call it on a tick (`planloop serve` does, every second).
 *
 * @example
 * setInterval(() => void wakeDueRuns({ store, tools, model }), 1000);
 */
export async function wakeDueRuns(options: WakeOptions): Promise<WakeReport> {
  const { store, concurrency = 4, limit = 100 } = options ?? ({} as WakeOptions);
  if (store?.dueRuns === undefined)
    throw new InvalidOptionsError(
      `wakeDueRuns: ${store?.location ?? "the store given"} cannot list the runs due to wake; use memoryStore, sqliteStore or postgresStore`,
    );
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new InvalidOptionsError(`wakeDueRuns: concurrency must be a whole number ≥ 1, not ${String(concurrency)}`);
  const clock = options.clock ?? systemClock;
  const due = await dueOutermostRuns(store, { at: clock.now(), limit });
  const report: WakeReport = { woken: [], busy: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const run = due[next++]!;
      try {
        const result = await continued(options, run, clock);
        report.woken.push({ runId: run.runId, status: result.status });
      } catch (error) {
        if (error instanceof RunBusyError) report.busy.push(run.runId);
        else report.failed.push({ runId: run.runId, error: shown(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
  return report;
}

async function continued(options: WakeOptions, run: DueRun, clock: Clock): Promise<{ status: string }> {
  if (run.entry === "executePlan") {
    // Where the store can, the run's lease is taken with a read of it, in one transaction: the run opens from that read.
    const held = RunLease.takeReading(options.store, run.runId);
    try {
      return await executePlan({
        ...options.planOptions,
        // A stored run continues the plan its journal holds.
        plan: undefined as unknown as ExecutePlanOptions["plan"],
        store: options.store,
        runId: run.runId,
        tools: options.tools,
        model: options.model,
        clock,
        lease: held === undefined ? { onBusy: "fail" } : { held },
      });
    } finally {
      // The run gives its lease up as it stops; one that failed before it opened gives it up here.
      await held?.release();
    }
  }
  if (options.continueRun !== undefined) return options.continueRun(run);
  throw new InvalidOptionsError(
    `run "${run.runId}" was started by ${run.entry}: give wakeDueRuns a continueRun that calls ${run.entry} again with its store and runId`,
  );
}

/**
 * The runs due to wake by `at`, each as its outermost run (a strategy's plan run is continued
 * through the strategy), once. None from a store that cannot list due runs.
 */
export async function dueOutermostRuns(store: CheckpointStore, query: { at: number; limit: number }): Promise<DueRun[]> {
  const runIds = store.dueRuns === undefined ? [] : await store.dueRuns(query);
  const seen = new Map<string, DueRun>();
  for (const runId of runIds) {
    let found: DueRun | undefined;
    for (const candidate of [...keptInCandidates(runId), runId]) {
      if (seen.has(candidate)) break;
      const stored = await rowOf(store, candidate);
      if (stored !== undefined && stored.status === "running") {
        found = { runId: candidate, entry: stored.entry };
        break;
      }
    }
    if (found !== undefined) seen.set(found.runId, found);
  }
  return [...seen.values()];
}

/** A run's row (its entry and status), without its journal where the store can leave it out: a wake pass reads the journal once, as it continues the run. */
function rowOf(store: CheckpointStore, runId: string) {
  return store.getRunFrom === undefined ? store.getRun(runId) : store.getRunFrom(runId, Number.MAX_SAFE_INTEGER);
}
