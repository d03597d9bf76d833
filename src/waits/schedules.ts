import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { jsonSafe } from "../core/json-safe.js";
import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { fireTimesOf } from "./fire-times.js";

/*
 * Schedules start runs on a cron pattern: "every Monday 08:00 Berlin time". They are kept in
 * the run store (its values), so every process serving the store sees the same ones. croner
 * reads the patterns (five fields, or six with seconds) on the zone's wall clock, and each
 * wall-clock fire time comes once, daylight-saving nights included (`fire-times.ts`); planloop
 * keeps what each schedule fired (`ScheduleState`) and starts the runs (`runSchedules`).
 */

/** What a schedule does while its last run still runs or waits: start nothing (`skip`), start anyway, or cancel that run first. */
export type ScheduleOverlap = "skip" | "allow" | "cancel-previous";

export interface Schedule {
  /** Letters, digits, `.`, `_` and `-`: it names the schedule's runs (`<name>@<fire time>`). */
  name: string;
  /** A cron pattern (croner's: five fields, or six with seconds first), e.g. `0 8 * * MON`. */
  cron: string;
  /** An IANA time zone the pattern is read in (`Europe/Berlin`); default UTC. */
  tz?: string;
  /** What to start, for the launch function (JSON): `planloop schedules add` keeps its command line here. */
  run: unknown;
  overlap: ScheduleOverlap;
  /** After downtime, at most this many of the missed fire times start (the latest ones); default 1. */
  catchUp: number;
  paused: boolean;
  /** When it was added (ms since 1970): fire times before it never start. */
  createdAt: number;
}

export type ScheduleInput = Omit<Schedule, "overlap" | "catchUp" | "paused" | "createdAt"> &
  Partial<Pick<Schedule, "overlap" | "catchUp" | "paused">>;

/** How far a schedule has fired: every fire time up to `firedUpTo` was started or passed over; its last run's id. */
export interface ScheduleState {
  firedUpTo: number;
  lastRunId?: string;
}

const schedulesKey = "planloop:schedules";
const stateKey = (name: string) => `planloop:schedule-state:${name}`;

/** The store's schedules, by name. */
export async function listSchedules(store: CheckpointStore): Promise<Schedule[]> {
  const kept = await store.getValue(schedulesKey);
  return isRecord(kept) ? Object.values(kept as Record<string, Schedule>).sort((a, b) => a.name.localeCompare(b.name)) : [];
}

/**
 * Adds a schedule, or replaces the one of its name (what it fired is kept). Its pattern, time
 * zone and numbers are checked first: a pattern croner cannot read is refused, saying why.
 */
export async function saveSchedule(store: CheckpointStore, input: ScheduleInput, clock: Clock = systemClock): Promise<Schedule> {
  const schedule = checkedSchedule(input, clock.now());
  // Read and written in one update: two schedules added at once are both kept.
  const updated = (await updateValue(store, schedulesKey, (current) => {
    const all = schedulesIn(current);
    const before = all[schedule.name];
    return { ...all, [schedule.name]: before === undefined ? schedule : { ...schedule, createdAt: before.createdAt } };
  })) as Record<string, Schedule>;
  return updated[schedule.name]!;
}

/**
 * Pauses or resumes a schedule. Resumed, it starts from now: the fire times it slept through
 * are not caught up. Unknown names are refused.
 */
export async function setSchedulePaused(
  store: CheckpointStore,
  name: string,
  paused: boolean,
  clock: Clock = systemClock,
): Promise<Schedule> {
  const updated = (await updateValue(store, schedulesKey, (current) => {
    const all = schedulesIn(current);
    const before = all[name];
    if (before === undefined) throw unknownSchedule(name, all);
    return { ...all, [name]: { ...before, paused } };
  })) as Record<string, Schedule>;
  const schedule = updated[name]!;
  if (!paused) {
    const state = await scheduleState(store, schedule);
    await saveScheduleState(store, name, { ...state, firedUpTo: Math.max(state.firedUpTo, clock.now()) });
  }
  return schedule;
}

/** Removes a schedule; its runs stay in the store. Unknown names are refused. */
export async function removeSchedule(store: CheckpointStore, name: string): Promise<void> {
  await updateValue(store, schedulesKey, (current) => {
    const { [name]: removed, ...rest } = schedulesIn(current);
    if (removed === undefined) throw unknownSchedule(name, rest);
    return rest;
  });
  await store.setValue(stateKey(name), null);
}

/** What a schedule fired so far; a schedule that never fired has fired up to when it was added. */
export async function scheduleState(store: CheckpointStore, schedule: Schedule): Promise<ScheduleState> {
  const kept = await store.getValue(stateKey(schedule.name));
  return isRecord(kept) && typeof kept.firedUpTo === "number" ? (kept as unknown as ScheduleState) : { firedUpTo: schedule.createdAt };
}

export async function saveScheduleState(store: CheckpointStore, name: string, state: ScheduleState): Promise<void> {
  await store.setValue(stateKey(name), state);
}

/**
 * The id of the run a schedule starts at a fire time: one per fire time, whichever process starts
 * it. Only a name: which schedule started a run is its recorded origin (`ScheduleFire.origin`).
 */
export function scheduledRunId(name: string, fireAt: number): string {
  return `${name}@${new Date(fireAt).toISOString()}`;
}

/** The next fire time after `now`, or undefined if the pattern never fires again. */
export function nextFireTime(schedule: Pick<Schedule, "cron" | "tz">, now: number): number | undefined {
  return fireTimesOf(schedule).next(now);
}

/** Checks a schedule as `saveSchedule` would, without keeping it: a pattern, zone or number it would refuse throws, saying why. */
export function checkSchedule(input: ScheduleInput, clock: Clock = systemClock): Schedule {
  return checkedSchedule(input, clock.now());
}

function checkedSchedule(input: ScheduleInput, now: number): Schedule {
  if (!isRecord(input)) throw new InvalidOptionsError("a schedule is { name, cron, run, tz?, overlap?, catchUp? }");
  const { name, cron, tz, overlap = "skip", catchUp = 1, paused = false } = input;
  if (typeof name !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(name))
    throw new InvalidOptionsError(`a schedule's name is 1 to 100 letters, digits, ".", "_" or "-", not ${JSON.stringify(name)}`);
  if (typeof cron !== "string" || cron.trim() === "")
    throw new InvalidOptionsError(`schedule ${name} needs a cron pattern, e.g. "0 8 * * MON"`);
  if (tz !== undefined && (typeof tz !== "string" || !isTimeZone(tz)))
    throw new InvalidOptionsError(`schedule ${name}: ${JSON.stringify(tz)} is not a time zone this machine knows (e.g. Europe/Berlin)`);
  if (!["skip", "allow", "cancel-previous"].includes(overlap))
    throw new InvalidOptionsError(`schedule ${name}: overlap is skip, allow or cancel-previous, not ${JSON.stringify(overlap)}`);
  if (!Number.isSafeInteger(catchUp) || catchUp < 1)
    throw new InvalidOptionsError(`schedule ${name}: catchUp is a whole number ≥ 1, not ${String(catchUp)}`);
  const schedule: Schedule = {
    name,
    cron,
    ...(tz === undefined ? {} : { tz }),
    run: jsonSafe(input.run ?? null),
    overlap,
    catchUp,
    paused,
    createdAt: now,
  };
  if (nextFireTime(schedule, now) === undefined) throw new InvalidOptionsError(`schedule ${name}: "${cron}" never fires after now`);
  return schedule;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function schedulesIn(value: unknown): Record<string, Schedule> {
  return isRecord(value) ? { ...(value as Record<string, Schedule>) } : {};
}

function unknownSchedule(name: string, all: Record<string, Schedule>): InvalidOptionsError {
  const names = Object.keys(all);
  return new InvalidOptionsError(`there is no schedule "${name}"${names.length === 0 ? "" : `; the schedules are ${names.join(", ")}`}`);
}
