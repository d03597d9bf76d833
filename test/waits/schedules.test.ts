import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  executePlan,
  listSchedules,
  memoryStore,
  removeSchedule,
  runSchedules,
  saveSchedule,
  setSchedulePaused,
  type CheckpointStore,
  type PlanInput,
  type ScheduleFire,
} from "planloop";
import { FakeClock } from "planloop/testing";

const hour = 3_600_000;

/** A report tool that counts its calls, and the launch that runs a small plan for a fire: durable, under the fire's run id. */
function pipeline(store: CheckpointStore, clock: FakeClock, options: { waitMs?: number } = {}) {
  const calls: string[] = [];
  const report = defineTool({
    name: "report",
    description: "build the report",
    input: z.object({ run: z.string() }),
    execute: (args) => {
      calls.push(args.run);
      return "report";
    },
  });
  const launch = (fire: ScheduleFire) => {
    const steps: PlanInput["steps"] = [{ id: 1, task: "report", tool: "report", args: { run: fire.runId } }];
    if (options.waitMs !== undefined)
      steps.push({ id: 2, task: "wait for approval day", wait: { forMs: options.waitMs }, depends_on: [1] });
    return executePlan({ plan: { steps }, tools: [report], store, runId: fire.runId, origin: fire.origin, clock });
  };
  return { calls, launch };
}

describe("schedules", () => {
  it("start a run at each fire time in the schedule's time zone, once, named for the fire time", async () => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-06T12:00:00Z"));
    const { calls, launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "weekly", cron: "0 8 * * MON", tz: "Europe/Berlin", run: { plan: "weekly.json" } }, clock);
    expect(await runSchedules({ store, launch, clock })).toEqual({ started: [], skipped: [], failed: [], clockWentBack: [] });

    await clock.advance(Date.parse("2026-12-07T06:59:59Z") - clock.now());
    expect((await runSchedules({ store, launch, clock })).started).toEqual([]);
    await clock.advance(1000);
    const report = await runSchedules({ store, launch, clock });
    // 08:00 in Berlin in December is 07:00 UTC.
    expect(report.started).toEqual([
      { schedule: "weekly", runId: "weekly@2026-12-07T07:00:00.000Z", fireAt: "2026-12-07T07:00:00.000Z", status: "completed" },
    ]);
    expect((await runSchedules({ store, launch, clock })).started).toEqual([]);
    await clock.advance(7 * 24 * hour);
    expect((await runSchedules({ store, launch, clock })).started.map((run) => run.runId)).toEqual(["weekly@2026-12-14T07:00:00.000Z"]);
    expect(calls).toEqual(["weekly@2026-12-07T07:00:00.000Z", "weekly@2026-12-14T07:00:00.000Z"]);
    // Each run's row says which schedule started it, at which fire time: that, not the id, is what grants and listings read.
    expect((await store.listRuns({ schedule: "weekly" })).map((row) => [row.runId, row.origin])).toEqual([
      ["weekly@2026-12-14T07:00:00.000Z", { schedule: { name: "weekly", fireAt: Date.parse("2026-12-14T07:00:00.000Z") } }],
      ["weekly@2026-12-07T07:00:00.000Z", { schedule: { name: "weekly", fireAt: Date.parse("2026-12-07T07:00:00.000Z") } }],
    ]);
    expect(await listSchedules(store)).toEqual([
      expect.objectContaining({ name: "weekly", overlap: "skip", catchUp: 1, paused: false, run: { plan: "weekly.json" } }),
    ]);
  });

  it.each([
    // Spring, 2027-03-28: 02:30 does not exist in Berlin; croner fires at 03:00 that day, once.
    ["2027-03-26T12:00:00Z", 3, ["2027-03-27T01:30:00.000Z", "2027-03-28T01:00:00.000Z", "2027-03-29T00:30:00.000Z"]],
    // Autumn, 2026-10-25: 02:30 happens twice; croner fires at the first, once.
    ["2026-10-23T12:00:00Z", 3, ["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]],
  ])("follow croner's daylight-saving rules from %s: one run a day", async (from, days, expected) => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse(from));
    const { launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "nightly", cron: "30 2 * * *", tz: "Europe/Berlin", run: null }, clock);
    const started: string[] = [];
    for (let tick = 0; tick < days * 24 * 4; tick += 1) {
      await clock.advance(hour / 4);
      started.push(...(await runSchedules({ store, launch, clock })).started.map((run) => run.fireAt));
    }
    expect(started).toEqual(expected);
  });

  it.each([
    [1, ["hourly@2026-12-07T05:00:00.000Z"], "2026-12-07T04:00:00.000Z"],
    [2, ["hourly@2026-12-07T04:00:00.000Z", "hourly@2026-12-07T05:00:00.000Z"], "2026-12-07T03:00:00.000Z"],
  ])("after downtime start at most catchUp (%i) of the missed fire times, the latest", async (catchUp, runs, lastMissed) => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-07T00:30:00Z"));
    const { calls, launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "hourly", cron: "0 * * * *", run: null, catchUp }, clock);
    await clock.advance(5 * hour);
    const report = await runSchedules({ store, launch, clock });
    expect(report.started.map((run) => run.runId)).toEqual(runs);
    expect(report.skipped).toEqual([
      {
        schedule: "hourly",
        fireAt: lastMissed,
        reason: `missed while nothing served the store, with every fire time from 2026-12-07T01:00:00.000Z on; catch-up ${catchUp} starts the latest ${catchUp} only`,
      },
    ]);
    expect(calls).toEqual(runs);
    expect((await runSchedules({ store, launch, clock })).started).toEqual([]);
  });

  it("catch up three days of a one-second schedule in one step: the latest fire time starts, the rest are named as missed", async () => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-04T08:00:00.250Z"));
    const { calls, launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "pulse", cron: "* * * * * *", tz: "Europe/Berlin", run: null }, clock);
    await clock.advance(3 * 24 * hour);
    const report = await runSchedules({ store, launch, clock });
    expect(report.started.map((run) => run.runId)).toEqual(["pulse@2026-12-07T08:00:00.000Z"]);
    expect(report.skipped).toEqual([
      {
        schedule: "pulse",
        fireAt: "2026-12-07T07:59:59.000Z",
        reason:
          "missed while nothing served the store, with every fire time from 2026-12-04T08:00:01.000Z on; catch-up 1 starts the latest 1 only",
      },
    ]);
    expect(calls).toEqual(["pulse@2026-12-07T08:00:00.000Z"]);
  });

  it("skip a fire time while the last run waits (overlap skip), start anyway (allow), or cancel it first (cancel-previous)", async () => {
    for (const overlap of ["skip", "allow", "cancel-previous"] as const) {
      const store = memoryStore();
      const clock = new FakeClock(Date.parse("2026-12-07T00:30:00Z"));
      const { calls, launch } = pipeline(store, clock, { waitMs: 90 * 60_000 });
      await saveSchedule(store, { name: "hourly", cron: "0 * * * *", run: null, overlap }, clock);
      await clock.advance(hour / 2);
      expect((await runSchedules({ store, launch, clock })).started).toEqual([expect.objectContaining({ status: "waiting" })]);
      await clock.advance(hour);
      const second = await runSchedules({ store, launch, clock });
      const first = await store.getRun("hourly@2026-12-07T01:00:00.000Z");
      if (overlap === "skip") {
        expect(second.skipped).toEqual([
          expect.objectContaining({ reason: "run hourly@2026-12-07T01:00:00.000Z still runs or waits (overlap: skip)" }),
        ]);
        expect(calls).toHaveLength(1);
        expect(first?.status).toBe("running");
      } else {
        expect(second.started.map((run) => run.runId)).toEqual(["hourly@2026-12-07T02:00:00.000Z"]);
        expect(calls).toHaveLength(2);
        expect(first?.status).toBe(overlap === "allow" ? "running" : "finished");
        if (overlap === "cancel-previous")
          expect(first?.result).toMatchObject({ status: "cancelled", reason: expect.stringMatching(/^cancelled by schedule hourly/) });
      }
    }
  });

  it("start each fire time's run once when two passes run at once on one store", async () => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-07T00:30:00Z"));
    const { calls, launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "a", cron: "0 * * * *", run: null }, clock);
    await saveSchedule(store, { name: "b", cron: "*/30 * * * *", run: null }, clock);
    for (let tick = 0; tick < 6; tick += 1) {
      await clock.advance(hour / 2);
      await Promise.all([runSchedules({ store, launch, clock }), runSchedules({ store, launch, clock })]);
    }
    expect(calls.filter((run) => run.startsWith("a@"))).toHaveLength(3);
    expect(calls.filter((run) => run.startsWith("b@"))).toHaveLength(6);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it("start nothing while paused, and nothing of the paused time once resumed; removed, they are gone", async () => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-07T00:30:00Z"));
    const { calls, launch } = pipeline(store, clock);
    await saveSchedule(store, { name: "hourly", cron: "0 * * * *", run: null }, clock);
    await setSchedulePaused(store, "hourly", true, clock);
    await clock.advance(3 * hour);
    expect(await runSchedules({ store, launch, clock })).toEqual({ started: [], skipped: [], failed: [], clockWentBack: [] });
    await setSchedulePaused(store, "hourly", false, clock);
    expect(await runSchedules({ store, launch, clock })).toEqual({ started: [], skipped: [], failed: [], clockWentBack: [] });
    await clock.advance(hour);
    expect((await runSchedules({ store, launch, clock })).started.map((run) => run.runId)).toEqual(["hourly@2026-12-07T04:00:00.000Z"]);
    await removeSchedule(store, "hourly");
    expect(await listSchedules(store)).toEqual([]);
    await expect(removeSchedule(store, "hourly")).rejects.toThrow('there is no schedule "hourly"');
    expect(calls).toHaveLength(1);
  });

  it("refuse a pattern croner cannot read, an unknown time zone, a bad name or catch-up, saying which", async () => {
    const store = memoryStore();
    await expect(saveSchedule(store, { name: "x", cron: "every monday", run: null })).rejects.toThrow(
      /schedule cron "every monday" cannot be read: .*e\.g\. "0 8 \* \* MON"/,
    );
    await expect(saveSchedule(store, { name: "x", cron: "0 8 * * *", tz: "Mars/Olympus", run: null })).rejects.toThrow(
      '"Mars/Olympus" is not a time zone this machine knows',
    );
    await expect(saveSchedule(store, { name: "a/b", cron: "0 8 * * *", run: null })).rejects.toThrow(
      /a schedule's name is 1 to 100 letters/,
    );
    await expect(saveSchedule(store, { name: "x", cron: "0 8 * * *", run: null, catchUp: 0 })).rejects.toThrow(
      "catchUp is a whole number ≥ 1, not 0",
    );
    expect(await listSchedules(store)).toEqual([]);
  });
});
