// A schedule's fire times against the rule read minute by minute off the wall clock (Intl), around the nights the clocks change.
import { Cron } from "croner";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dueFireTimes, fireTimesOf } from "../../src/waits/fire-times.js";
import { wallTime } from "../../src/waits/wall-clock.js";

const minute = 60_000;
const patterns = ["0 1,3 * * *", "0,30 2 * * *", "30 2 * * *", "*/20 * * * *", "15 1-3 * * *", "0 * * * *", "45 23 * * SUN"];
// Zones and the instants their clocks change in 2026-27 (Lord Howe's by half an hour); and two zones that do not change.
const changes: Array<[string, string]> = [
  ["Europe/Berlin", "2026-10-25T01:00:00Z"],
  ["Europe/Berlin", "2027-03-28T01:00:00Z"],
  ["America/New_York", "2026-11-01T06:00:00Z"],
  ["America/New_York", "2027-03-14T07:00:00Z"],
  ["Australia/Lord_Howe", "2026-10-03T15:30:00Z"],
  ["Australia/Lord_Howe", "2027-04-03T15:00:00Z"],
  ["Asia/Kolkata", "2026-10-25T01:00:00Z"],
  ["UTC", "2027-03-28T01:00:00Z"],
];

/**
 * The rule, minute by minute: an instant fires when the wall clock shows a matching time for the
 * first time, or when the clocks jump over a matching time (once for all it skipped).
 */
function firesByTheRule(cron: string, zone: string, after: number, upTo: number): number[] {
  const pattern = new Cron(cron, { paused: true, timezone: "UTC" });
  const fires: number[] = [];
  let highest = wallTime(after - 2 * 3_600_000, zone);
  for (let at = after - 2 * 3_600_000 + minute; at <= upTo; at += minute) {
    const shown = wallTime(at, zone);
    const skipped = shown - highest > minute && pattern.nextRun(new Date(highest))!.getTime() < shown;
    const fires_ = (shown > highest && pattern.match(new Date(shown))) || skipped;
    if (fires_ && at > after) fires.push(at);
    highest = Math.max(highest, shown);
  }
  return fires;
}

describe("fire times", () => {
  it("are the rule's, read directly (latest) and step by step (next), around daylight-saving changes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.constantFrom(...changes),
        fc.integer({ min: -6 * 60, max: 3 * 60 }),
        fc.integer({ min: 1, max: 6 * 60 }),
        (cron, [zone, change], startMinutes, spanMinutes) => {
          const after = Date.parse(change) + startMinutes * minute;
          const upTo = after + spanMinutes * minute;
          const expected = firesByTheRule(cron, zone, after, upTo);
          const times = fireTimesOf({ cron, tz: zone });
          expect(times.latest({ after, upTo, count: expected.length + 1 })).toEqual(expected);
          expect(times.latest({ after, upTo, count: 1 })).toEqual(expected.slice(-1));
          const walked: number[] = [];
          for (let at = times.next(after); at !== undefined && at <= upTo; at = times.next(at)) walked.push(at);
          expect(walked).toEqual(expected);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("after downtime start the latest catchUp and name the first and last they pass over", () => {
    const after = Date.parse("2026-12-07T00:30:00Z");
    const now = Date.parse("2026-12-07T05:30:00Z");
    expect(dueFireTimes({ cron: "0 * * * *", catchUp: 2 }, after, now)).toEqual({
      start: [Date.parse("2026-12-07T04:00:00Z"), Date.parse("2026-12-07T05:00:00Z")],
      missed: { first: Date.parse("2026-12-07T01:00:00Z"), last: Date.parse("2026-12-07T03:00:00Z") },
    });
    expect(dueFireTimes({ cron: "0 * * * *", catchUp: 5 }, after, now)).toEqual({
      start: [1, 2, 3, 4, 5].map((hour) => Date.parse(`2026-12-07T0${hour}:00:00Z`)),
    });
  });

  it("catch up ten years of a one-second schedule in one step: the last fire time, and the range passed over", () => {
    const after = Date.parse("2016-12-07T00:00:00Z");
    const now = Date.parse("2026-12-07T00:00:00.500Z");
    expect(dueFireTimes({ cron: "* * * * * *", tz: "Europe/Berlin", catchUp: 1 }, after, now)).toEqual({
      start: [Date.parse("2026-12-07T00:00:00Z")],
      missed: { first: after + 1000, last: Date.parse("2026-12-06T23:59:59Z") },
    });
  });
});
