import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, sendEvent, validatePlan, wakeDueRuns, type PlanInput } from "planloop";
import { waitStores } from "../helpers/wait-stores.js";
import { FakeClock } from "planloop/testing";

const monday = Date.parse("2026-12-07T08:00:00Z");
const day = 24 * 60 * 60 * 1000;

/** A tool that counts its calls and echoes what it was given. */
function counted(name: string) {
  const calls: unknown[] = [];
  const tool = defineTool({
    name,
    description: name,
    input: z.object({ value: z.unknown().optional() }),
    execute: (args) => {
      calls.push(args.value);
      return { seen: args.value ?? null };
    },
  });
  return { tool, calls };
}

const stores = waitStores;

describe("timer wait steps", () => {
  it("sleep on the run's clock when the run has no store, and say when they woke", async () => {
    const clock = new FakeClock(monday);
    const after = counted("after");
    const plan: PlanInput = {
      steps: [
        { id: 1, task: "an hour", wait: { forMs: 3_600_000 } },
        { id: 2, task: "go", tool: "after", args: {}, depends_on: [1] },
      ],
    };
    const result = await clock.run(executePlan({ plan, tools: [after.tool], clock }), { limitMs: 2 * 3_600_000 });
    expect(result.status).toBe("completed");
    expect(result.steps["1"]!.output).toEqual({ wokeAt: "2026-12-07T09:00:00.000Z", waitedUntil: "2026-12-07T09:00:00.000Z" });
    expect(after.calls).toHaveLength(1);
  });

  it.each(stores)(
    "hold nothing in a durable run for a 7-day wait: stored waiting, woken when due, nothing run twice (%s)",
    async (_, open) => {
      const store = open();
      const clock = new FakeClock(monday);
      const before = counted("before");
      const after = counted("after");
      const tools = [before.tool, after.tool];
      const plan: PlanInput = {
        steps: [
          { id: 1, task: "pull", tool: "before", args: { value: 1 } },
          { id: 2, task: "a week", wait: { forMs: 7 * day }, depends_on: [1] },
          { id: 3, task: "report", tool: "after", args: { value: "$2.wokeAt" }, depends_on: [2] },
        ],
      };
      const first = await executePlan({ plan, tools, store, runId: "weekly", clock });
      expect(first.status).toBe("waiting");
      expect(first.waits).toEqual([{ stepId: 2, kind: "timer", until: "2026-12-14T08:00:00.000Z" }]);
      expect(first.pending).toEqual([]);
      expect(clock.pendingTimers).toBe(0);
      expect((await store.listRuns({ status: "waiting" })).map((run) => run.runId)).toEqual(["weekly"]);

      await clock.advance(6 * day);
      expect(await wakeDueRuns({ store, tools, clock })).toEqual({ woken: [], busy: [], failed: [] });
      await clock.advance(day);
      const woken = await wakeDueRuns({ store, tools, clock });
      expect(woken).toEqual({ woken: [{ runId: "weekly", status: "completed" }], busy: [], failed: [] });
      expect(before.calls).toEqual([1]);
      expect(after.calls).toEqual(["2026-12-14T08:00:00.000Z"]);
      expect(await wakeDueRuns({ store, tools, clock })).toEqual({ woken: [], busy: [], failed: [] });
      const stored = await executePlan({ plan, tools, store, runId: "weekly", clock });
      expect(stored.status).toBe("completed");
      expect(after.calls).toHaveLength(1);
    },
  );

  it("wait until an ISO time, and keep that time when continued early", async () => {
    const store = memoryStore();
    const clock = new FakeClock(monday);
    const plan: PlanInput = { steps: [{ id: "w", task: "until nine", wait: { until: "2026-12-07T10:00:00+01:00" } }] };
    const first = await executePlan({ plan, store, runId: "r", clock });
    expect(first.waits).toEqual([{ stepId: "w", kind: "timer", until: "2026-12-07T09:00:00.000Z" }]);
    await clock.advance(1_000);
    // Continued before its time (by hand), it waits on for the same time.
    const early = await executePlan({ plan, store, runId: "r", clock });
    expect(early.waits).toEqual(first.waits);
    await clock.advance(3_600_000);
    expect((await wakeDueRuns({ store, clock })).woken).toEqual([{ runId: "r", status: "completed" }]);
  });
});

describe("event wait steps", () => {
  const eventPlan = (timeoutMs?: number): PlanInput => ({
    steps: [
      {
        id: 1,
        task: "export landed",
        waitFor: { event: "export-ready", match: { day: "2026-12-07" }, ...(timeoutMs ? { timeoutMs } : {}) },
      },
      { id: 2, task: "build", tool: "after", args: { value: "$1.rows" }, depends_on: [1] },
    ],
  });

  it.each(stores)("wake on a matching event only, its data the step's output (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const after = counted("after");
    const first = await executePlan({ plan: eventPlan(), tools: [after.tool], store, runId: "report", clock });
    expect(first.status).toBe("waiting");
    expect(first.waits).toEqual([{ stepId: 1, kind: "event", event: "export-ready", match: { day: "2026-12-07" } }]);
    expect(await wakeDueRuns({ store, tools: [after.tool], clock })).toEqual({ woken: [], busy: [], failed: [] });

    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-06", rows: 5 }, clock });
    await sendEvent({ store, event: "other", data: { day: "2026-12-07", rows: 6 }, clock });
    const mismatched = await wakeDueRuns({ store, tools: [after.tool], clock });
    expect(mismatched.woken).toEqual([{ runId: "report", status: "waiting" }]);
    // Woken once by the events it saw; they do not wake it again.
    expect((await wakeDueRuns({ store, tools: [after.tool], clock })).woken).toEqual([]);

    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 1200 }, clock });
    expect((await wakeDueRuns({ store, tools: [after.tool], clock })).woken).toEqual([{ runId: "report", status: "completed" }]);
    expect(after.calls).toEqual([1200]);
  });

  it("take an event sent before the run got there, once: a second run waits for the next", async () => {
    const store = memoryStore();
    const clock = new FakeClock(monday);
    const after = counted("after");
    const sent = await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 7 }, id: "export-1", clock });
    expect(await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 8 }, id: "export-1", clock })).toEqual({
      ...sent,
      duplicate: true,
    });
    const early = await executePlan({ plan: eventPlan(), tools: [after.tool], store, runId: "a", clock });
    expect(early.status).toBe("completed");
    expect(after.calls).toEqual([7]);
    const late = await executePlan({ plan: eventPlan(), tools: [after.tool], store, runId: "b", clock });
    expect(late.status).toBe("waiting");
  });

  it("drop an event kept past its time, and reach only the run it names", async () => {
    const store = memoryStore();
    const clock = new FakeClock(monday);
    const after = counted("after");
    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 1 }, keepMs: 1_000, clock });
    await clock.advance(2_000);
    expect((await executePlan({ plan: eventPlan(), tools: [after.tool], store, runId: "a", clock })).status).toBe("waiting");
    expect((await executePlan({ plan: eventPlan(), tools: [after.tool], store, runId: "b", clock })).status).toBe("waiting");
    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 2 }, runId: "b", clock });
    expect((await wakeDueRuns({ store, tools: [after.tool], clock })).woken).toEqual([{ runId: "b", status: "completed" }]);
    expect(after.calls).toEqual([2]);
  });

  it.each(stores)(
    "key an event by name, id and run: invoice-paid 42 is not export-ready 42, and one delivery id reaches two runs (%s)",
    async (_, open) => {
      const store = open();
      const clock = new FakeClock(monday);
      const after = counted("after");
      const paidPlan: PlanInput = {
        steps: [
          { id: 1, task: "invoice paid", waitFor: { event: "invoice-paid" } },
          { id: 2, task: "book", tool: "after", args: { value: "$1.invoice" }, depends_on: [1] },
        ],
      };
      for (const runId of ["paid", "a", "b"])
        expect(
          (await executePlan({ plan: runId === "paid" ? paidPlan : eventPlan(), tools: [after.tool], store, runId, clock })).status,
        ).toBe("waiting");
      const data = { day: "2026-12-07", rows: 3 };
      expect(await sendEvent({ store, event: "export-ready", id: "42", data, runId: "a", clock })).toMatchObject({ duplicate: false });
      expect(await sendEvent({ store, event: "export-ready", id: "42", data, runId: "b", clock })).toMatchObject({ duplicate: false });
      expect(await sendEvent({ store, event: "invoice-paid", id: "42", data: { invoice: "INV-42" }, clock })).toMatchObject({
        duplicate: false,
      });
      expect(await sendEvent({ store, event: "invoice-paid", id: "42", data: { invoice: "again" }, clock })).toMatchObject({
        duplicate: true,
      });
      const woken = await wakeDueRuns({ store, tools: [after.tool], clock });
      expect(woken.woken.map((run) => [run.runId, run.status]).sort()).toEqual([
        ["a", "completed"],
        ["b", "completed"],
        ["paid", "completed"],
      ]);
      expect(after.calls.sort()).toEqual([3, 3, "INV-42"]);
    },
  );

  it("fail the step when no event came in time, saying so; an optional one lets the run go on", async () => {
    const store = memoryStore();
    const clock = new FakeClock(monday);
    const after = counted("after");
    expect((await executePlan({ plan: eventPlan(60_000), tools: [after.tool], store, runId: "t", clock })).status).toBe("waiting");
    await clock.advance(30_000);
    expect((await wakeDueRuns({ store, tools: [after.tool], clock })).woken).toEqual([]);
    await clock.advance(30_000);
    expect((await wakeDueRuns({ store, tools: [after.tool], clock })).woken).toEqual([{ runId: "t", status: "failed" }]);
    const ended = await executePlan({ plan: eventPlan(60_000), tools: [after.tool], store, runId: "t", clock });
    expect(ended.steps["1"]!.error).toMatch(/waited 60000 ms for event "export-ready" and none came/);
    expect(after.calls).toEqual([]);
  });

  it("refuse a waitFor step in a run without a store, saying what to do", async () => {
    const after = counted("after");
    const result = await executePlan({ plan: eventPlan(), tools: [after.tool] });
    expect(result.status).toBe("failed");
    expect(result.steps["1"]!.error).toMatch(/the run has no store: run it with a store/);
  });
});

describe("wait steps in plans", () => {
  it.each([
    [{ id: 1, task: "w", wait: {} }, /neither or both of forMs and until/],
    [{ id: 1, task: "w", wait: { forMs: 1, until: "2026-12-07T08:00:00Z" } }, /neither or both/],
    [{ id: 1, task: "w", wait: { until: "next monday" } }, /not an ISO time/],
    [{ id: 1, task: "w", wait: { forMs: 1 }, waitFor: { event: "e" } }, /both wait and waitFor/],
    [{ id: 1, task: "w", tool: "after", args: {}, waitFor: { event: "e" } }, /a wait step calls nothing/],
  ])("are refused when malformed: %j", (step, message) => {
    const checked = validatePlan({ steps: [step] });
    expect(checked.ok).toBe(false);
    if (!checked.ok)
      expect(checked.errors).toEqual([expect.objectContaining({ code: "invalid_wait", message: expect.stringMatching(message) })]);
  });

  it("pass when well-formed", () => {
    expect(
      validatePlan({
        steps: [
          { id: 1, task: "w", waitFor: { event: "e", timeoutMs: 5 } },
          { id: 2, task: "t", wait: { until: "2026-12-07T08:00:00Z" } },
        ],
      }).ok,
    ).toBe(true);
  });
});
