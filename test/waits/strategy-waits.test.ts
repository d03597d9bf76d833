import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, planAndExecute, sendEvent, wakeDueRuns, type PlanAndExecuteOptions } from "planloop";
import { FakeClock, ScriptedModel } from "planloop/testing";

const json = (value: unknown) => ({ type: "final" as const, content: "```json\n" + JSON.stringify(value) + "\n```" });
const text = (content: string) => ({ type: "final" as const, content });

const plan = {
  steps: [
    { id: 1, task: "wait for the warehouse export", waitFor: { event: "export-ready", match: { day: "2026-12-07" } } },
    { id: 2, task: "build the report", tool: "report", args: { rows: "$1.rows" }, depends_on: [1] },
  ],
};

function reportTool() {
  const calls: number[] = [];
  const tool = defineTool({
    name: "report",
    description: "build the report from the export's rows",
    input: z.object({ rows: z.number() }),
    execute: (args) => {
      calls.push(args.rows);
      return `report of ${args.rows} rows`;
    },
  });
  return { tool, calls };
}

describe("wait steps a planner writes", () => {
  it("are offered in the planner's prompt only with waitSteps", async () => {
    const promptOf = async (waitSteps: boolean | undefined) => {
      const planner = new ScriptedModel([
        { purpose: "plan", reply: json({ steps: [{ id: 1, task: "x", tool: "report", args: { rows: 1 } }] }) },
        { purpose: "solve", reply: text("done") },
      ]);
      await planAndExecute({
        task: "weekly report",
        planner,
        tools: [reportTool().tool],
        ...(waitSteps === undefined ? {} : { waitSteps }),
      });
      const system = planner.requests[0]!.messages[0]!;
      return system.role === "system" ? system.content : "";
    };
    expect(await promptOf(true)).toMatch(/"waitFor": \{"event": "export-ready"/);
    expect(await promptOf(true)).toMatch(/"poll": \{"everyMs": 60000/);
    expect(await promptOf(undefined)).not.toMatch(/waitFor|poll/);
    expect(await promptOf(false)).toBe(await promptOf(undefined));
  });

  it("keep a Plan-and-Execute run waiting with nothing held; the event and a wake pass finish it, planning once", async () => {
    const store = memoryStore();
    const clock = new FakeClock(Date.parse("2026-12-07T08:00:00Z"));
    const report = reportTool();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: json(plan) },
      { purpose: "solve", reply: text("the report has 1200 rows") },
    ]);
    const options: PlanAndExecuteOptions = {
      task: "weekly report",
      planner,
      tools: [report.tool],
      store,
      runId: "monday",
      clock,
      waitSteps: true,
    };
    const first = await planAndExecute(options);
    expect(first.status).toBe("waiting");
    expect(clock.pendingTimers).toBe(0);
    expect(report.calls).toEqual([]);

    // Another day's export wakes nothing; this day's does.
    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-06", rows: 5 }, clock });
    const continueRun = () => planAndExecute(options);
    const early = await wakeDueRuns({ store, continueRun, clock });
    expect(early.failed).toEqual([]);
    expect(report.calls).toEqual([]);
    await sendEvent({ store, event: "export-ready", data: { day: "2026-12-07", rows: 1200 }, clock });
    const woken = await wakeDueRuns({ store, continueRun, clock });
    expect(woken).toEqual({ woken: [{ runId: "monday", status: "completed" }], busy: [], failed: [] });
    expect(report.calls).toEqual([1200]);
    expect(planner.requests.map((request) => request.purpose)).toEqual(["plan", "solve"]);
    expect((await planAndExecute(options)).output).toBe("the report has 1200 rows");
    expect(report.calls).toEqual([1200]);
  });
});
