// Schedules on the nights the clocks change: one run per wall-clock fire time, whatever the pattern.
import { describe, expect, it } from "vitest";
import { memoryStore, runSchedules, saveSchedule, type ScheduleFire } from "planloop";
import { FakeClock } from "planloop/testing";

/** The fire times (UTC) a schedule starts between `from` and `to`, with a pass every five minutes. */
async function firesBetween(schedule: { cron: string; tz: string }, from: string, to: string): Promise<string[]> {
  const store = memoryStore();
  const clock = new FakeClock(Date.parse(from));
  const fired: string[] = [];
  const launch = (fire: ScheduleFire) => {
    fired.push(new Date(fire.fireAt).toISOString());
    return Promise.resolve({ status: "completed" });
  };
  await saveSchedule(store, { name: "nightly", ...schedule, run: null, overlap: "allow" }, clock);
  while (clock.now() < Date.parse(to)) {
    await clock.advance(5 * 60_000);
    await runSchedules({ store, launch, clock });
  }
  return fired;
}

describe("schedules on daylight-saving nights", () => {
  describe("America/New_York", () => {
    const tz = "America/New_York";
    // Autumn, 2026-11-01: at 02:00 EDT (06:00Z) the clocks go back to 01:00 EST; 01:00 to 01:59 is shown twice.
    const autumn = ["2026-11-01T03:00:00Z", "2026-11-01T10:00:00Z"] as const;
    // Spring, 2027-03-14: at 02:00 EST (07:00Z) the clocks jump to 03:00 EDT; 02:00 to 02:59 is never shown.
    const spring = ["2027-03-14T04:00:00Z", "2027-03-14T10:00:00Z"] as const;

    it("a single time shown twice fires once, at its first showing", async () => {
      expect(await firesBetween({ cron: "30 1 * * *", tz }, ...autumn)).toEqual(["2026-11-01T05:30:00.000Z"]);
    });

    it("several times, one shown twice: one 01:00 run, not two", async () => {
      expect(await firesBetween({ cron: "0 1,3 * * *", tz }, ...autumn)).toEqual(["2026-11-01T05:00:00.000Z", "2026-11-01T08:00:00.000Z"]);
    });

    it("a single time the clocks skip fires when they jump", async () => {
      expect(await firesBetween({ cron: "30 2 * * *", tz }, ...spring)).toEqual(["2027-03-14T07:00:00.000Z"]);
    });

    it("several times, some skipped: those fire once, when the clocks jump", async () => {
      expect(await firesBetween({ cron: "0 1,3 * * *", tz }, ...spring)).toEqual(["2027-03-14T06:00:00.000Z", "2027-03-14T07:00:00.000Z"]);
      expect(await firesBetween({ cron: "0,30 2 * * *", tz }, ...spring)).toEqual(["2027-03-14T07:00:00.000Z"]);
    });
  });

  describe("Europe/Berlin", () => {
    const tz = "Europe/Berlin";
    // Autumn, 2026-10-25: at 03:00 CEST (01:00Z) the clocks go back to 02:00 CET; 02:00 to 02:59 is shown twice.
    const autumn = ["2026-10-24T23:00:00Z", "2026-10-25T04:00:00Z"] as const;
    // Spring, 2027-03-28: at 02:00 CET (01:00Z) the clocks jump to 03:00 CEST.
    const spring = ["2027-03-27T23:00:00Z", "2027-03-28T04:00:00Z"] as const;

    it("a single time shown twice fires once, at its first showing", async () => {
      expect(await firesBetween({ cron: "30 2 * * *", tz }, ...autumn)).toEqual(["2026-10-25T00:30:00.000Z"]);
    });

    it("several times shown twice: two runs, not four", async () => {
      expect(await firesBetween({ cron: "0,30 2 * * *", tz }, ...autumn)).toEqual(["2026-10-25T00:00:00.000Z", "2026-10-25T00:30:00.000Z"]);
    });

    it("an hourly pattern fires once per hour the clocks show, the repeated hour once", async () => {
      expect(await firesBetween({ cron: "0 * * * *", tz }, ...autumn)).toEqual([
        "2026-10-25T00:00:00.000Z",
        // 02:00 CET (01:00Z) was shown already, as 02:00 CEST.
        "2026-10-25T02:00:00.000Z",
        "2026-10-25T03:00:00.000Z",
        "2026-10-25T04:00:00.000Z",
      ]);
    });

    it("a single time the clocks skip fires when they jump", async () => {
      expect(await firesBetween({ cron: "30 2 * * *", tz }, ...spring)).toEqual(["2027-03-28T01:00:00.000Z"]);
    });

    it("several times the clocks skip fire once, when they jump", async () => {
      expect(await firesBetween({ cron: "0,30 2 * * *", tz }, ...spring)).toEqual(["2027-03-28T01:00:00.000Z"]);
      expect(await firesBetween({ cron: "*/30 1-3 * * *", tz }, ...spring)).toEqual([
        "2027-03-28T00:00:00.000Z",
        "2027-03-28T00:30:00.000Z",
        "2027-03-28T01:00:00.000Z",
        "2027-03-28T01:30:00.000Z",
      ]);
    });
  });
});
