import pLimit, { type LimitFunction } from "p-limit";
import { errorMessage, InvalidOptionsError, RunBusyError } from "../core/errors.js";
import type { CheckpointStore, RunSummary } from "../journal/checkpoint-store.js";
import { runSchedules, type ScheduleFire } from "../waits/run-schedules.js";
import { dueOutermostRuns } from "../waits/wake-due-runs.js";
import { FailedStarts, type StartRetries } from "./failed-starts.js";
import { noteLeftAlone } from "./left-alone.js";
import { orphanedRuns } from "./orphaned-runs.js";
import type { RunHost } from "./run-host.js";
import { coveredByGrants, grantTargets } from "./standing-grants.js";

/** A run the service continues that no run host started: why, and what a standing grant approves in it. */
export interface ContinueRequest {
  runId: string;
  /** Why it is continued now, for a log: its wait is over, its owner is gone, a grant covers it. */
  why: string;
  /** The ids a standing grant approves, and whose grant it is (`decidedBy`). */
  approve?: { ids: string[]; by: string } | undefined;
}

/** How a continuation ended, as far as the service needs it: what it said last (a command's last line on stderr). */
export interface ContinueEnd {
  lastLine?: string | undefined;
}

export interface ServeRunsOptions {
  store: CheckpointStore;
  /** Runs started through this run host (the HTTP API, MCP) are continued by it, the way they were started. */
  host?: RunHost | undefined;
  /**
   * How every other run is continued: the command line's runs by their command line (`planloop
   * serve` runs each in a process of its own), a program's by calling its entry point again with
   * the same store and runId (and `approvals` for `approve`). It resolves when the run stops again.
   * One that resolves without the run having moved failed to start: see `startRetries`.
   */
  continueRun?: ((run: ContinueRequest) => Promise<void | ContinueEnd>) | undefined;
  /**
   * A continuation that failed to start (it resolved, its command exited, and the run wrote
   * nothing: a tools module that exits on import) is tried again after a tick, then twice as long
   * each time, and after `attempts` (5) in a row the run is left alone, the reason kept in the
   * store (`planloop runs list|show`, the ui). A start that moved the run resets the count.
   */
  startRetries?: StartRetries | undefined;
  /** The service's clock (ms since 1970); tests give a simulated one. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Starts a schedule's run at its fire time (see `runSchedules`); without it no schedule fires here. */
  launch?: ((fire: ScheduleFire) => Promise<{ status: string }>) | undefined;
  /** At most this many runs continued (or schedule passes) at once; the others wait their turn. Default 8. */
  concurrency?: number | undefined;
  /** At most this many due runs, and waiting runs for grants, read per pass. Default 100. */
  limit?: number | undefined;
  /** A running run untouched this long whose lease is free has lost its owner, and is continued. Default 10 s. */
  orphanAfterMs?: number | undefined;
  /** How often the store is looked at (ms). Default 1000. */
  tickMs?: number | undefined;
  /** Stops the service: no pass starts after it aborts, and `serveRuns` resolves once what is in hand is done. */
  signal?: AbortSignal | undefined;
  /** What the service does, one line each (a run continued, a schedule's run started). */
  log?: ((line: string) => void) | undefined;
  /** What went wrong (a run it leaves alone from now, a schedule that could not start). */
  warn?: ((line: string) => void) | undefined;
  /**
   * Told of each schedule's run that could not start, once it is kept as a failed run with
   * `reason` (`planloop serve` sends its `run.failed` webhook from here).
   */
  onStartFailed?: ((failure: { schedule: string; runId: string; reason: string }) => void) | undefined;
}

/**
 * The service loop a store needs to keep its runs going, as `planloop serve` runs it: on every
 * pass it continues the runs whose wait is over, starts the schedules' runs that are due,
 * continues runs whose owner is gone, and approves and continues what a standing grant covers.
 * Runs are continued side by side under `concurrency` — a run whose wait is over never waits
 * behind another run's long step — each under its own lease, so several services (processes,
 * machines) may serve one store. A run that cannot be continued (its tools module is gone, its
 * request was changed), or whose continuation keeps failing to start, is left alone from then on,
 * said so once, and noted in the store with the reason (`leftAloneReasons`).
 */
export class RunService {
  private readonly pool: LimitFunction;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly leftAlone = new Set<string>();
  private readonly failedStarts: FailedStarts;
  private readonly now: () => number;
  private schedules: Promise<void> | undefined;

  constructor(private readonly options: ServeRunsOptions) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new InvalidOptionsError(`concurrency must be a whole number >= 1, got ${String(concurrency)}`);
    this.pool = pLimit(concurrency);
    const firstDelayMs = options.startRetries?.firstDelayMs ?? options.tickMs ?? 1000;
    this.failedStarts = new FailedStarts({ ...options.startRetries, firstDelayMs });
    this.now = options.now ?? Date.now;
  }

  /**
   * One look at the store: what is due is handed to the pool, and the pass resolves once it has
   * been read, not once the runs have stopped (`settled` waits for those).
   */
  async pass(at = this.now()): Promise<void> {
    const { store } = this.options;
    const limit = this.options.limit ?? 100;
    for (const { runId } of await dueOutermostRuns(store, { at, limit })) this.continueRun({ runId, why: "its wait is over" }, at);
    if (this.options.launch !== undefined && this.schedules === undefined) this.fireSchedules(this.options.launch);
    for (const runId of await orphanedRuns(store, { afterMs: this.options.orphanAfterMs ?? 10_000, at }))
      this.continueRun({ runId, why: "its owner is gone" }, at);
    await this.applyGrants(at, limit);
  }

  /** Passes every `tickMs` until `signal` aborts; then waits for the runs in hand. */
  async run(): Promise<void> {
    const { signal } = this.options;
    const tickMs = this.options.tickMs ?? 1000;
    while (!signal?.aborted) {
      try {
        await this.pass();
      } catch (error) {
        // The store away for a moment: the next pass tries again.
        this.options.warn?.(`a pass over the store failed: ${errorMessage(error)}; trying again in ${tickMs} ms`);
      }
      await pause(tickMs, signal);
    }
    await this.settled();
  }

  /** Resolves once no run is being continued here and no schedule pass is in hand. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.schedules !== undefined) await Promise.all([...this.inFlight.values(), this.schedules]);
  }

  /** The runs being continued here now. */
  get continuing(): string[] {
    return [...this.inFlight.keys()];
  }

  private continueRun(request: ContinueRequest, at: number): void {
    const { runId } = request;
    if (this.inFlight.has(runId) || this.leftAlone.has(runId) || this.failedStarts.backingOff(runId, at)) return;
    if (this.options.host?.isLive(runId)) return;
    const done = this.pool(() => this.continueOne(request)).finally(() => this.inFlight.delete(runId));
    this.inFlight.set(runId, done);
  }

  private async continueOne(request: ContinueRequest): Promise<void> {
    const { runId, why } = request;
    const { host, continueRun } = this.options;
    try {
      if (host !== undefined && (await host.hosts(runId))) {
        if (host.isLive(runId)) return;
        this.options.log?.(`run ${runId}: ${why}; continuing it`);
        if (request.approve !== undefined) {
          await host.applyGrants(runId);
          return await host.settled(runId);
        }
        return await (
          await host.continue(runId)
        ).done;
      }
      if (continueRun === undefined) {
        const run = await this.options.store.getRun(runId);
        throw new InvalidOptionsError(`it was started by ${run?.entry ?? "a program"}: give serveRuns a continueRun that calls it again`);
      }
      this.options.log?.(`run ${runId}: ${why}; continuing it`);
      const before = await this.rowOf(runId);
      const end = await continueRun(request);
      await this.checkStarted(runId, before, end?.lastLine);
    } catch (error) {
      if (error instanceof RunBusyError) return this.options.log?.(`run ${runId}: another process is on it`);
      await this.leaveAlone(runId, errorMessage(error));
    }
  }

  /** A continuation that ended with the run as it was failed to start: backed off, and after a few in a row, given up. */
  private async checkStarted(runId: string, before: RunSummary | undefined, lastLine: string | undefined): Promise<void> {
    const after = await this.rowOf(runId);
    if (after === undefined || after.status === "finished" || moved(before, after)) return this.failedStarts.started(runId);
    const at = this.now();
    const move = this.failedStarts.failed(runId, at);
    const said = lastLine === undefined || lastLine === "" ? "" : ` (${lastLine})`;
    if (move.kind === "give-up")
      return this.leaveAlone(runId, `its command stopped before the run moved, ${move.failures} times in a row${said}`);
    this.options.warn?.(
      `run ${runId}: its command stopped before the run moved${said}; trying again in ${move.notBefore - at} ms (failed start ${move.failures})`,
    );
  }

  /** Left alone from now: said once, and noted in the store for the faces that show the run. */
  private async leaveAlone(runId: string, reason: string): Promise<void> {
    this.leftAlone.add(runId);
    this.options.warn?.(`run ${runId}: ${reason}; left alone from now`);
    await noteLeftAlone(this.options.store, { runId, reason, at: this.now() }).catch((error: unknown) =>
      this.options.warn?.(`run ${runId}: why it is left alone could not be kept: ${errorMessage(error)}`),
    );
  }

  private async rowOf(runId: string): Promise<RunSummary | undefined> {
    return (await this.options.store.listRuns({ runId, limit: 1 }))[0];
  }

  /** One schedule pass at a time, in the pool beside the runs: a slow start does not hold the next pass. */
  private fireSchedules(launch: (fire: ScheduleFire) => Promise<{ status: string }>): void {
    const { store, log, warn } = this.options;
    this.schedules = this.pool(async () => {
      const report = await runSchedules({ store, launch });
      for (const run of report.started) log?.(`schedule ${run.schedule}: started ${run.runId}: ${run.status}`);
      for (const skip of report.skipped) log?.(`schedule ${skip.schedule}: not started at ${skip.fireAt}: ${skip.reason}`);
      for (const failure of report.failed) {
        warn?.(`schedule ${failure.schedule}: ${failure.runId} could not start: ${failure.error}`);
        const { schedule, runId, reason } = failure;
        this.options.onStartFailed?.({ schedule, runId, reason });
      }
      for (const back of report.clockWentBack)
        warn?.(
          `schedule ${back.schedule}: it had fired up to ${back.firedUpTo}, past now (${back.now}): the clock went back; next at ${back.next ?? "never"}`,
        );
    })
      .catch((error: unknown) => warn?.(`the schedules could not be read: ${errorMessage(error)}`))
      .finally(() => (this.schedules = undefined));
  }

  /** Waiting runs a standing grant covers (their own, or their schedule's) are approved and continued. */
  private async applyGrants(at: number, limit: number): Promise<void> {
    const { store } = this.options;
    const granted = await grantTargets(store, at);
    for (const row of await store.listRuns({ topLevel: true, status: "waiting", limit })) {
      if (!granted(row) || this.inFlight.has(row.runId)) continue;
      const covered = await coveredByGrants(store, row.runId, at);
      if (covered.length === 0) continue;
      const ids = covered.map((item) => item.id);
      const by = `standing grant of ${[...new Set(covered.map((item) => item.by))].join(", ")}`;
      this.continueRun({ runId: row.runId, why: `a standing grant approves ${ids.join(", ")}`, approve: { ids, by } }, at);
    }
  }
}

/**
 * Runs the service loop over `store` until `signal` aborts (see `RunService`): due runs, due
 * schedules, runs whose owner is gone, standing grants; runs continued side by side.
 *
 * ```ts
 * const stop = new AbortController();
 * process.on("SIGTERM", () => stop.abort());
 * await serveRuns({
 *   store,
 *   continueRun: ({ runId, approve }) =>
 *     executePlan({ plan, tools, store, runId, approvals: Object.fromEntries((approve?.ids ?? []).map((id) => [id, { approved: true }])), decidedBy: approve?.by }).then(() => {}),
 *   signal: stop.signal,
 * });
 * ```
 */
export function serveRuns(options: ServeRunsOptions): Promise<void> {
  return new RunService(options).run();
}

/** Whether the run wrote anything between two looks at its row. */
function moved(before: RunSummary | undefined, after: RunSummary): boolean {
  return before === undefined || before.entries !== after.entries || before.updatedAt !== after.updatedAt || before.status !== after.status;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
