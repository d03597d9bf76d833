import { systemClock, type Clock } from "../core/clock.js";
import { errorMessage, InvalidOptionsError, RunBusyError } from "../core/errors.js";
import type { CheckpointStore, RunOrigin } from "../journal/checkpoint-store.js";
import { RunLease } from "../journal/run-lease.js";
import { keepFailedStart } from "./failed-start.js";
import { dueFireTimes, fireTimesOf } from "./fire-times.js";
import { listSchedules, saveScheduleState, scheduledRunId, scheduleState, type Schedule, type ScheduleState } from "./schedules.js";

/** One fire of a schedule: start the schedule's run with this id, in the store. */
export interface ScheduleFire {
  schedule: Schedule;
  /** `<name>@<fire time>`: the same in every process, so a fire time starts one run. */
  runId: string;
  fireAt: number;
  /**
   * Where the run comes from, for its row: pass it as the run's `origin` (`executePlan({ …,
   * runId: fire.runId, origin: fire.origin })`). Grants of scope "schedule" hold for the runs
   * whose origin names the schedule; the id is only a name.
   */
  origin: RunOrigin;
}

export interface RunSchedulesOptions {
  store: CheckpointStore;
  /**
   * Starts a fire's run, with its `runId`, its `origin` and the same store (a durable run: started twice, the
   * second call continues or shows the first). Resolves when the call returns; a run that waits
   * returns `waiting`. A `RunBusyError` says another process is on it.
   */
  launch: (fire: ScheduleFire) => Promise<{ status: string }>;
  clock?: Clock | undefined;
}

/** What a pass did, fire time by fire time (times as ISO strings). */
export interface ScheduleReport {
  started: Array<{ schedule: string; runId: string; fireAt: string; status: string }>;
  /** Fire times not started: overlap, catch-up, or another process on them. */
  skipped: Array<{ schedule: string; fireAt: string; reason: string }>;
  /**
   * Runs that could not start: each is kept in the store as a failed run, `reason` its result's
   * reason; `error` says too when it could not be kept.
   */
  failed: Array<{ schedule: string; runId: string; error: string; reason: string }>;
  /**
   * Schedules that had fired past now: the clock went back (or ran ahead for a while). Each starts
   * again from now, its next fire time recomputed, instead of going silent until that time comes.
   */
  clockWentBack: Array<{ schedule: string; firedUpTo: string; now: string; next: string | undefined }>;
}

/** How far a schedule may have fired past now before the clock is taken to have gone back: clocks of one store's machines differ by less. */
export const clockSlackMs = 60_000;

/**
 * One pass over the store's schedules: every fire time that came since the last pass starts its
 * run through `launch`, one schedule after another, following the schedule's overlap and
 * catch-up. Safe from several processes at once: a fire time's run has one id everywhere, and
 * a durable run started twice runs once. Call it on a tick (`planloop serve` does).
 */
export async function runSchedules(options: RunSchedulesOptions): Promise<ScheduleReport> {
  const { store, launch } = options ?? ({} as RunSchedulesOptions);
  if (store === undefined || typeof launch !== "function")
    throw new InvalidOptionsError("runSchedules needs { store, launch }: the store the schedules are kept in, and what starts a run");
  const clock = options.clock ?? systemClock;
  const report: ScheduleReport = { started: [], skipped: [], failed: [], clockWentBack: [] };
  for (const schedule of await listSchedules(store)) {
    if (schedule.paused) continue;
    const now = clock.now();
    let state = await scheduleState(store, schedule);
    if (state.firedUpTo > now + clockSlackMs) state = await startAgainFromNow(store, schedule, { state, now, report });
    const { start, missed } = dueFireTimes(schedule, state.firedUpTo, now);
    if (missed !== undefined)
      report.skipped.push({
        schedule: schedule.name,
        fireAt: iso(missed.last),
        reason: `missed while nothing served the store, with every fire time from ${iso(missed.first)} on; catch-up ${schedule.catchUp} starts the latest ${schedule.catchUp} only`,
      });
    for (const fireAt of start) {
      const origin = { schedule: { name: schedule.name, fireAt } };
      const fire = { schedule, runId: scheduledRunId(schedule.name, fireAt), fireAt, origin };
      const held = await overlapping(store, schedule, state, fire.runId);
      if (held !== undefined) report.skipped.push({ schedule: schedule.name, fireAt: iso(fireAt), reason: held });
      else await started(fire, { launch, store, report, at: now });
      state = { firedUpTo: fireAt, ...(held === undefined ? { lastRunId: fire.runId } : pick(state)) };
      await saveScheduleState(store, schedule.name, state);
    }
  }
  return report;
}

/** A schedule that fired past now (the clock went back): it starts again from now (a minute back), and the report says so. */
async function startAgainFromNow(
  store: CheckpointStore,
  schedule: Schedule,
  pass: { state: ScheduleState; now: number; report: ScheduleReport },
): Promise<ScheduleState> {
  const { state, now, report } = pass;
  const next = fireTimesOf(schedule).next(now);
  report.clockWentBack.push({
    schedule: schedule.name,
    firedUpTo: iso(state.firedUpTo),
    now: iso(now),
    next: next === undefined ? undefined : iso(next),
  });
  // From a minute back: a fire time the pass on the wrong clock took the place of starts now (one started already has its run).
  const again = { ...state, firedUpTo: now - clockSlackMs };
  await saveScheduleState(store, schedule.name, again);
  return again;
}

async function started(
  fire: ScheduleFire,
  pass: { launch: RunSchedulesOptions["launch"]; store: CheckpointStore; report: ScheduleReport; at: number },
): Promise<void> {
  const { schedule, runId, fireAt, origin } = fire;
  const { report } = pass;
  try {
    const result = await pass.launch(fire);
    report.started.push({ schedule: schedule.name, runId, fireAt: iso(fireAt), status: result.status });
  } catch (error) {
    if (error instanceof RunBusyError)
      return void report.skipped.push({ schedule: schedule.name, fireAt: iso(fireAt), reason: `another process runs ${runId} now` });
    const reason = `schedule ${schedule.name} could not start its run: ${errorMessage(error)}`;
    const kept = await keepFailedStart(pass.store, { runId, origin, reason, at: pass.at }).then(
      () => "",
      (failure: unknown) => `; and it could not be kept as a failed run: ${errorMessage(failure)}`,
    );
    report.failed.push({ schedule: schedule.name, runId, error: `${errorMessage(error)}${kept}`, reason });
  }
}

/**
 * Why a fire time must not start its run while the schedule's last run still runs or waits
 * (`skip`), or undefined to go ahead: `allow` always does; `cancel-previous` ends that run first
 * (under its lease: a run a process is running right now is not ended under it).
 */
async function overlapping(store: CheckpointStore, schedule: Schedule, state: ScheduleState, runId: string): Promise<string | undefined> {
  const previous = state.lastRunId;
  if (schedule.overlap === "allow" || previous === undefined || previous === runId) return undefined;
  const run = await store.getRun(previous);
  if (run === undefined || run.status === "finished") return undefined;
  if (schedule.overlap === "skip") return `run ${previous} still runs or waits (overlap: skip)`;
  let lease: RunLease;
  try {
    lease = await RunLease.take(store, previous, { lease: { onBusy: "fail" } });
  } catch (error) {
    if (error instanceof RunBusyError)
      return `run ${previous} is running in another process and cannot be cancelled now (overlap: cancel-previous)`;
    throw error;
  }
  try {
    const reason = `cancelled by schedule ${schedule.name}: ${runId} starts (overlap: cancel-previous)`;
    await store.finishRun(previous, { status: "cancelled", reason, runId: previous }, Date.now(), lease.token);
  } finally {
    await lease.release();
  }
  return undefined;
}

function pick(state: ScheduleState): Pick<ScheduleState, "lastRunId"> {
  return state.lastRunId === undefined ? {} : { lastRunId: state.lastRunId };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
