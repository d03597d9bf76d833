// Schedules when things go wrong: a clock that went back, a run that cannot start.
import { describe, expect, it } from "vitest";
import { memoryStore, runSchedules, saveSchedule, type Clock, type ScheduleFire } from "planloop";

/** A clock set by hand, forwards or back (runSchedules reads only its time). */
function handClock(at: string): Clock & { set(at: string): void } {
  let now = Date.parse(at);
  return {
    now: () => now,
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
    set: (next) => void (now = Date.parse(next)),
  };
}

const recorded = (fired: string[]) => (fire: ScheduleFire) => {
  fired.push(fire.runId);
  return Promise.resolve({ status: "completed" });
};

describe("a schedule whose clock went back", () => {
  it("is noticed, said, and fires again from the corrected time instead of waiting for the wrong date", async () => {
    const store = memoryStore();
    const clock = handClock("2026-12-07T00:30:00Z");
    const fired: string[] = [];
    const launch = recorded(fired);
    await saveSchedule(store, { name: "hourly", cron: "0 * * * *", run: null }, clock);
    // One pass with the clock 30 days ahead: it starts that day's latest fire time, as after downtime.
    clock.set("2027-01-06T00:30:00Z");
    expect((await runSchedules({ store, launch, clock })).started.map((run) => run.runId)).toEqual(["hourly@2027-01-06T00:00:00.000Z"]);
    clock.set("2026-12-07T00:59:00Z");
    expect(await runSchedules({ store, launch, clock })).toMatchObject({
      started: [],
      clockWentBack: [
        { schedule: "hourly", firedUpTo: "2027-01-06T00:00:00.000Z", now: "2026-12-07T00:59:00.000Z", next: "2026-12-07T01:00:00.000Z" },
      ],
    });
    clock.set("2026-12-07T01:00:01Z");
    const next = await runSchedules({ store, launch, clock });
    expect(next.started.map((run) => run.runId)).toEqual(["hourly@2026-12-07T01:00:00.000Z"]);
    expect(next.clockWentBack).toEqual([]);
    clock.set("2026-12-07T02:00:01Z");
    expect((await runSchedules({ store, launch, clock })).started.map((run) => run.runId)).toEqual(["hourly@2026-12-07T02:00:00.000Z"]);
  });

  it("starts the fire time a pass on the wrong clock hid, and takes a few seconds between machines' clocks as no jump", async () => {
    const store = memoryStore();
    const clock = handClock("2026-12-07T00:59:59Z");
    const fired: string[] = [];
    const launch = recorded(fired);
    await saveSchedule(store, { name: "hourly", cron: "0 * * * *", run: null }, clock);
    clock.set("2027-01-06T00:30:00Z");
    await runSchedules({ store, launch, clock });
    // Corrected just after 01:00: the 01:00 run was never started (the wrong pass took its place).
    clock.set("2026-12-07T01:00:02Z");
    expect((await runSchedules({ store, launch, clock })).started.map((run) => run.runId)).toEqual(["hourly@2026-12-07T01:00:00.000Z"]);
    // Another machine two seconds behind: it waits for its clock to come round, as before.
    clock.set("2026-12-07T02:00:01Z");
    await runSchedules({ store, launch, clock });
    clock.set("2026-12-07T01:59:59Z");
    expect(await runSchedules({ store, launch, clock })).toMatchObject({ started: [], clockWentBack: [] });
  });
});

describe("a schedule's run that cannot start", () => {
  it("is kept as a failed run with the reason, named and originated as the run it would have been", async () => {
    const store = memoryStore();
    const clock = handClock("2026-12-07T00:30:00Z");
    await saveSchedule(store, { name: "digest", cron: "0 * * * *", run: null }, clock);
    clock.set("2026-12-07T01:00:01Z");
    const launch = () => Promise.reject(new Error("--model openai:gpt-4.1-mini needs an API key in OPENAI_API_KEY"));
    const report = await runSchedules({ store, launch, clock });
    const reason = "schedule digest could not start its run: --model openai:gpt-4.1-mini needs an API key in OPENAI_API_KEY";
    expect(report.failed).toEqual([
      {
        schedule: "digest",
        runId: "digest@2026-12-07T01:00:00.000Z",
        error: "--model openai:gpt-4.1-mini needs an API key in OPENAI_API_KEY",
        reason,
      },
    ]);
    expect(await store.getRun("digest@2026-12-07T01:00:00.000Z")).toMatchObject({
      status: "finished",
      result: { status: "failed", reason },
      origin: { schedule: { name: "digest", fireAt: Date.parse("2026-12-07T01:00:00Z") } },
    });
    expect((await store.listRuns({ schedule: "digest" })).map((row) => [row.runId, row.outcome?.status])).toEqual([
      ["digest@2026-12-07T01:00:00.000Z", "failed"],
    ]);
    // The next fire time tries again (overlap: skip sees a finished run), and fails the same way, kept too.
    clock.set("2026-12-07T02:00:01Z");
    expect((await runSchedules({ store, launch, clock })).failed.map((failure) => failure.runId)).toEqual([
      "digest@2026-12-07T02:00:00.000Z",
    ]);
  });

  it("leaves alone a run the launch created before it failed: its journal says how far it got", async () => {
    const store = memoryStore();
    const clock = handClock("2026-12-07T00:30:00Z");
    await saveSchedule(store, { name: "digest", cron: "0 * * * *", run: null }, clock);
    clock.set("2026-12-07T01:00:01Z");
    const launch = async (fire: ScheduleFire) => {
      await store.createRun({ runId: fire.runId, entry: "executePlan", at: clock.now(), origin: fire.origin });
      throw new Error("the disk is full");
    };
    expect((await runSchedules({ store, launch, clock })).failed).toHaveLength(1);
    expect(await store.getRun("digest@2026-12-07T01:00:00.000Z")).toMatchObject({ status: "running", entry: "executePlan" });
  });
});
