import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, wakeDueRuns, type PlanInput } from "planloop";
import { FakeClock } from "planloop/testing";
import { waitStores } from "../helpers/wait-stores.js";

// A poll step whose tool needs approval: each call asks under its own id, so one approval
// approves one call, and the poll ends at maxMs from its first call even while a call waits.

const monday = Date.parse("2026-12-07T08:00:00Z");
const minute = 60_000;
const approve = { approved: true };

/** A charge whose status says "pending" every time: every call needs a person's approval. */
function pendingCharge() {
  const charged: number[] = [];
  const tool = defineTool({
    name: "charge",
    description: "charge the card and report the charge's state",
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: (args) => (charged.push(args.amount), { state: "pending" }),
  });
  return { tool, charged };
}

function chargePlan(poll: { everyMs: number; maxMs: number }): PlanInput {
  return {
    steps: [
      {
        id: 1,
        task: "charge until settled",
        tool: "charge",
        args: { amount: 250 },
        poll: { ...poll, until: { path: "state", equals: "done" } },
      },
    ],
  };
}

describe("poll steps whose calls need approval", () => {
  it("ask each call under its own id: an approval of step:1 given again does not approve the second call", async () => {
    const clock = new FakeClock(monday);
    const charge = pendingCharge();
    const options = { plan: chargePlan({ everyMs: 5 * minute, maxMs: 60 * minute }), tools: [charge.tool], clock };
    const first = await executePlan(options);
    expect(first).toMatchObject({ status: "waiting", pending: [{ id: "step:1" }] });

    const second = await clock.run(executePlan({ ...options, resume: first.state!, approvals: { "step:1": approve } }), {
      limitMs: 60 * minute,
    });
    expect(charge.charged).toEqual([250]);
    await expect(clock.run(executePlan({ ...options, resume: second.state!, approvals: { "step:1": approve } }))).rejects.toThrow(
      /the decision for "step:1" was already used/,
    );
    expect(charge.charged).toEqual([250]);
    expect(second).toMatchObject({ status: "waiting", pending: [{ id: "step:1#2", callId: "step:1", kind: "approval" }] });

    const third = await clock.run(executePlan({ ...options, resume: second.state!, approvals: { "step:1#2": approve } }), {
      limitMs: 60 * minute,
    });
    expect(charge.charged).toEqual([250, 250]);
    expect(third).toMatchObject({ status: "waiting", pending: [{ id: "step:1#3" }] });
  });

  it.each(waitStores)("ask each call under its own id in a durable run, between wakes (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const charge = pendingCharge();
    const tools = [charge.tool];
    const options = { plan: chargePlan({ everyMs: 5 * minute, maxMs: 60 * minute }), tools, store, runId: "charge", clock };
    expect(await executePlan(options)).toMatchObject({ status: "waiting", pending: [{ id: "step:1" }] });
    expect(await executePlan({ ...options, approvals: { "step:1": approve } })).toMatchObject({ status: "waiting", pending: [] });
    await clock.advance(5 * minute);
    await wakeDueRuns({ store, tools, clock });
    expect(charge.charged).toEqual([250]);

    await expect(executePlan({ ...options, approvals: { "step:1": approve } })).rejects.toThrow(/already used/);
    expect(charge.charged).toEqual([250]);
    expect(await executePlan({ ...options, approvals: { "step:1#2": approve } })).toMatchObject({ status: "waiting" });
    expect(charge.charged).toEqual([250, 250]);
  });

  it.each(waitStores)("end at maxMs from the first call while a call waits for approval: the run wakes to end it (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const charge = pendingCharge();
    const tools = [charge.tool];
    const options = { plan: chargePlan({ everyMs: 5 * minute, maxMs: 20 * minute }), tools, store, runId: "late", clock };
    const asked = await executePlan(options);
    expect(asked).toMatchObject({ status: "waiting", pending: [{ id: "step:1" }] });

    // Approved ten minutes late: the call runs, and the next one (at 15 minutes) asks again.
    await clock.advance(10 * minute);
    await executePlan({ ...options, approvals: { "step:1": approve } });
    await clock.advance(5 * minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([{ runId: "late", status: "waiting" }]);
    expect(charge.charged).toEqual([250]);

    // Nobody decides: at 20 minutes from the first call the poll is over, without a person.
    await clock.advance(4 * minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([]);
    await clock.advance(minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([{ runId: "late", status: "failed" }]);
    const ended = await executePlan(options);
    expect(ended.status).toBe("failed");
    expect(ended.steps["1"]!.error).toBe(
      "step 1 called charge 1 times over 1200000 ms; its next call waited for a decision (step:1#2) when maxMs 1200000 was up",
    );
    expect(charge.charged).toEqual([250]);
    // The request says so: it lapses when the poll's time is up.
    expect(asked.pending?.[0]?.expiresAt).toBe(monday + 20 * minute);
  });

  it("end at maxMs when a run without a store is continued with an approval after the time is up", async () => {
    const clock = new FakeClock(monday);
    const charge = pendingCharge();
    const options = { plan: chargePlan({ everyMs: 5 * minute, maxMs: 20 * minute }), tools: [charge.tool], clock };
    const first = await executePlan(options);
    await clock.advance(10 * minute);
    const second = await clock.run(executePlan({ ...options, resume: first.state!, approvals: { "step:1": approve } }), {
      limitMs: 60 * minute,
    });
    expect(second).toMatchObject({ status: "waiting", pending: [{ kind: "approval" }] });
    expect(clock.now() - monday).toBe(15 * minute);

    await clock.advance(10 * minute);
    const late = await clock.run(executePlan({ ...options, resume: second.state!, approvals: { [second.pending![0]!.id]: approve } }));
    expect(late.status).toBe("failed");
    expect(late.steps["1"]!.error).toMatch(/waited for a decision \(step:1#2\) when maxMs 1200000 was up$/);
    expect(charge.charged).toEqual([250]);
  });
});
