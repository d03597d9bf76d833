import { Cron } from "croner";
import { InvalidOptionsError, shown } from "../core/errors.js";
import { firstInstantOf, wallReached } from "./wall-clock.js";

/*
 * A schedule's fire times. croner reads the pattern on the zone's wall clock (kept as if it were
 * UTC, so croner sees no daylight saving), and each wall-clock fire time comes at one instant
 * (`firstInstantOf`): one run per wall-clock time, whatever the pattern, on the nights the clocks
 * change too. Both ways of asking — the next one, the latest few — cost a few croner steps
 * however long ago the last fire was: catching up after three days down reads no more than
 * catching up after one second.
 */

export interface FireTimes {
  /** The first fire time after `instant`, or undefined if the pattern never fires again. */
  next(instant: number): number | undefined;
  /** The latest fire times after `after` and up to `upTo` (both instants), at most `count`, oldest first. */
  latest(query: { after: number; upTo: number; count: number }): number[];
}

/** The fire times of `cron` in time zone `tz` (default UTC); a pattern croner cannot read is refused, saying why. */
export function fireTimesOf(schedule: { cron: string; tz?: string | undefined }): FireTimes {
  const zone = schedule.tz ?? "UTC";
  const pattern = wallClockPattern(schedule.cron);
  return {
    next(instant) {
      // From the latest wall-clock time already shown: in an autumn night's second pass that is past what the clocks show now.
      let from = wallReached(instant, zone);
      for (;;) {
        const wall = pattern.nextRun(new Date(from))?.getTime();
        if (wall === undefined) return undefined;
        const at = firstInstantOf(wall, zone);
        if (at > instant) return at;
        from = wall;
      }
    },
    latest({ after, upTo, count }) {
      const found: number[] = [];
      // Back from `upTo`, one fire time a step: a step past a spring jump lands before it, so the times it skipped count once.
      for (let before = upTo; found.length < count;) {
        // croner's previous runs are strictly before the reference, to the second: the next second takes in `before`'s own.
        const reference = Math.floor(wallReached(before, zone) / 1000) * 1000 + 1000;
        const wall = pattern.previousRuns(1, new Date(reference))[0]?.getTime();
        if (wall === undefined) break;
        const at = firstInstantOf(wall, zone);
        if (at <= after) break;
        found.unshift(at);
        before = at - 1;
      }
      return found;
    },
  };
}

/** What a pass starts of a schedule: its fire times due since the last pass, and the ones it passes over. */
export interface DueFireTimes {
  /** The latest `catchUp` fire times due, oldest first. */
  start: number[];
  /** The earlier ones due, passed over after downtime: the first and the last of them. */
  missed?: { first: number; last: number };
}

/** The fire times due after `after` up to `now`, by the schedule's catch-up rule (see `DueFireTimes`). */
export function dueFireTimes(
  schedule: { cron: string; tz?: string | undefined; catchUp: number },
  after: number,
  now: number,
): DueFireTimes {
  const times = fireTimesOf(schedule);
  // One more than catch-up starts: when it is there, it is the last of the missed ones.
  const latest = times.latest({ after, upTo: now, count: schedule.catchUp + 1 });
  if (latest.length <= schedule.catchUp) return { start: latest };
  return { start: latest.slice(1), missed: { first: times.next(after)!, last: latest[0]! } };
}

function wallClockPattern(cron: string): Cron {
  try {
    // Paused and without a function: croner only reads the pattern; no timer is set.
    return new Cron(cron, { paused: true, timezone: "UTC" });
  } catch (error) {
    throw new InvalidOptionsError(`schedule cron "${cron}" cannot be read: ${shown(error)} (e.g. "0 8 * * MON": Mondays at 08:00)`);
  }
}
