import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, validatePlan, wakeDueRuns, type PlanInput } from "planloop";
import { waitStores } from "../helpers/wait-stores.js";
import { FakeClock } from "planloop/testing";

const monday = Date.parse("2026-12-07T08:00:00Z");
const minute = 60_000;

/** An export job's status tool: answers `states` in turn (the last one from then on), counting calls. */
function exportStatus(states: unknown[]) {
  let calls = 0;
  const tool = defineTool({
    name: "export_status",
    description: "the warehouse export's status",
    input: z.object({ job: z.string() }),
    execute: (args) => ({ job: args.job, ...(states[Math.min(calls++, states.length - 1)] as object) }),
  });
  return { tool, calls: () => calls };
}

const report = defineTool({
  name: "report",
  description: "build the report",
  input: z.object({ rows: z.number() }),
  execute: (args) => `report of ${args.rows} rows`,
});

function pollPlan(poll: Record<string, unknown>): PlanInput {
  return {
    steps: [
      {
        id: 1,
        task: "wait for the export",
        tool: "export_status",
        args: { job: "weekly" },
        poll: { everyMs: 5 * minute, maxMs: 60 * minute, until: { path: "state", equals: "done" }, ...poll },
      },
      { id: 2, task: "report", tool: "report", args: { rows: "$1.rows" }, depends_on: [1] },
    ],
  };
}

const stores = waitStores;

describe("poll steps", () => {
  it("call their tool again every everyMs on the run's clock until the output meets until, when the run has no store", async () => {
    const clock = new FakeClock(monday);
    const status = exportStatus([{ state: "running" }, { state: "running" }, { state: "done", rows: 42 }]);
    const run = executePlan({ plan: pollPlan({}), tools: [status.tool, report], clock });
    const result = await clock.run(run, { limitMs: 60 * minute });
    expect(result.status).toBe("completed");
    expect(status.calls()).toBe(3);
    expect(clock.now() - monday).toBe(10 * minute);
    expect(result.steps["1"]!.output).toEqual({ job: "weekly", state: "done", rows: 42 });
    expect(result.output).toBe("report of 42 rows");
  });

  it.each(stores)("hold nothing between calls in a durable run: each call is a wake, with the calls so far (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const status = exportStatus([{ state: "queued" }, { state: "running" }, { state: "done", rows: 7 }]);
    const tools = [status.tool, report];
    const first = await executePlan({ plan: pollPlan({}), tools, store, runId: "export", clock });
    expect(first.status).toBe("waiting");
    expect(first.waits).toEqual([{ stepId: 1, kind: "timer", until: "2026-12-07T08:05:00.000Z", polls: 1 }]);
    expect(clock.pendingTimers).toBe(0);

    await clock.advance(4 * minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([]);
    expect(status.calls()).toBe(1);
    await clock.advance(minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([{ runId: "export", status: "waiting" }]);
    expect(status.calls()).toBe(2);
    const [waiting] = await store.listRuns({ status: "waiting" });
    expect(waiting?.runId).toBe("export");

    await clock.advance(5 * minute);
    expect((await wakeDueRuns({ store, tools, clock })).woken).toEqual([{ runId: "export", status: "completed" }]);
    expect(status.calls()).toBe(3);
    const done = await executePlan({ plan: pollPlan({}), tools, store, runId: "export", clock });
    expect(done.output).toBe("report of 7 rows");
    expect(status.calls()).toBe(3);
  });

  it.each(stores)("fail after maxMs from the first call, saying how often they called and what came last (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const status = exportStatus([{ state: "running" }]);
    const tools = [status.tool, report];
    const plan = pollPlan({ everyMs: 10 * minute, maxMs: 25 * minute });
    let result = await executePlan({ plan, tools, store, runId: "late", clock });
    for (let wake = 0; wake < 5 && result.status === "waiting"; wake += 1) {
      await clock.advance(10 * minute);
      await wakeDueRuns({ store, tools, clock });
      result = await executePlan({ plan, tools, store, runId: "late", clock });
    }
    // Calls at 0, 10 and 20 minutes; a fourth at 30 would come after maxMs.
    expect(status.calls()).toBe(3);
    expect(result.status).toBe("failed");
    expect(result.steps["2"]!.status).toBe("skipped");
    expect(result.steps["1"]!.error).toMatch(
      /^step 1 called export_status 3 times over 1200000 ms and its output never met poll\.until \{"path":"state","equals":"done"\} within maxMs 1500000; last output: \{"job":"weekly","state":"running"\}$/,
    );
  });

  it("read until's path through keys and indexes, and test equals, in and exists", async () => {
    const cases: Array<[{ path: string } & Record<string, unknown>, unknown[], number]> = [
      [{ path: "jobs.1.state", equals: "done" }, [{ jobs: [{}, { state: "run" }] }, { jobs: [{}, { state: "done" }] }], 2],
      [{ path: "state", in: ["done", "failed"] }, [{ state: "run" }, { state: "run" }, { state: "failed" }], 3],
      [{ path: "result", exists: true }, [{}, { result: 0 }], 2],
      [{ path: "lock", exists: false }, [{ lock: "x" }, { lock: "x" }, {}], 3],
      [{ path: "state", equals: { code: 1 } }, [{ state: { code: 2 } }, { state: { code: 1 } }], 2],
    ];
    for (const [until, states, expected] of cases) {
      const clock = new FakeClock(monday);
      const status = exportStatus(states);
      const plan: PlanInput = {
        steps: [{ id: 1, task: "poll", tool: "export_status", args: { job: "j" }, poll: { everyMs: minute, maxMs: 10 * minute, until } }],
      };
      const result = await clock.run(executePlan({ plan, tools: [status.tool], clock }), { limitMs: 10 * minute });
      expect([until, result.status, status.calls()]).toEqual([until, "completed", expected]);
    }
  });

  it("are checked by validatePlan: a tool to call, maxMs at least everyMs, one test in until", () => {
    const problems = (step: Record<string, unknown>) => {
      const checked = validatePlan({ steps: [{ id: 1, task: "poll", ...step } as PlanInput["steps"][number]] });
      return checked.ok ? [] : checked.errors.map((error) => [error.code, error.message]);
    };
    const until = { path: "state", equals: "done" };
    expect(problems({ poll: { everyMs: 1000, maxMs: 5000, until } })).toEqual([
      ["invalid_wait", "step 1 polls but calls no tool; give it the tool whose output says when the work is done"],
    ]);
    expect(problems({ tool: "t", poll: { everyMs: 5000, maxMs: 1000, until } })).toEqual([
      ["invalid_wait", "step 1 polls every 5000 ms for at most 1000 ms, so it calls once; make maxMs at least everyMs"],
    ]);
    expect(problems({ tool: "t", poll: { everyMs: 1000, maxMs: 5000, until: { path: "state" } } })[0]?.[1]).toMatch(
      /not exactly one of equals, in and exists/,
    );
    expect(problems({ tool: "t", poll: { everyMs: 1000, maxMs: 5000, until: { path: "s", equals: 1, exists: true } } })[0]?.[0]).toBe(
      "invalid_wait",
    );
    expect(problems({ wait: { forMs: 5 }, poll: { everyMs: 1000, maxMs: 5000, until } })[0]?.[1]).toMatch(/has both a wait and a poll/);
    expect(problems({ tool: "t", poll: { everyMs: 1000, maxMs: 5000, until } })).toEqual([]);
  });
});
