import { describe, expect, it } from "vitest";
import { executePlan, type PlanloopEvent } from "planloop";
import { FakeClock } from "planloop/testing";
import { workStep, workTool } from "../../test/helpers/timed-tools.js";

describe("executePlan scheduling", () => {
  it("runs the seed's weekly report in its critical path: 340 ms", async () => {
    const clock = new FakeClock();
    const { tool, log } = workTool(clock);
    const plan = {
      steps: [workStep(1, 300), workStep(2, 50), workStep(3, 120), workStep(4, 20, [1, 2, 3]), workStep(5, 20, [4])],
    };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock }));
    expect(result.status).toBe("completed");
    expect(clock.now()).toBe(340);
    expect(log.started).toEqual([
      { step: "1", at: 0 },
      { step: "3", at: 0 },
      { step: "2", at: 0 },
      { step: "4", at: 300 },
      { step: "5", at: 320 },
    ]);
    expect(result.steps["5"]).toMatchObject({ status: "succeeded", startedAt: 320, endedAt: 340, attempts: 1 });
    expect(result.output).toEqual({ step: "5", at: 340 });
  });

  it("does not make a fast chain wait for a slow one: 220 ms, not a superstep's 410", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = {
      steps: [
        workStep("a1", 200),
        workStep("a2", 10, ["a1"]),
        workStep("a3", 10, ["a2"]),
        workStep("b1", 10),
        workStep("b2", 200, ["b1"]),
        workStep("b3", 10, ["b2"]),
      ],
    };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock }));
    expect(result.status).toBe("completed");
    expect(clock.now()).toBe(220);
    expect(Object.keys(result.output as object)).toEqual(["a3", "b3"]);
  });

  it("starts the longest remaining path first when slots are short", async () => {
    const clock = new FakeClock();
    const { tool, log } = workTool(clock);
    const plan = { steps: [workStep("short", 10), workStep("long", 10), workStep("tail", 100, ["long"])] };
    await clock.run(executePlan({ plan, tools: [tool], clock, concurrency: 1 }));
    expect(log.started.map((entry) => entry.step)).toEqual(["long", "tail", "short"]);
    expect(clock.now()).toBe(120);
  });

  it("keeps a tool's own concurrency limit without holding slots from other tools", async () => {
    const clock = new FakeClock();
    const { tool: work, log } = workTool(clock);
    const { tool: narrowBase, log: narrowLog } = workTool(clock);
    const narrow = { ...narrowBase, name: "narrow", concurrency: 1 };
    const narrowStep = (id: string) => ({ ...workStep(id, 50), tool: "narrow", estimateMs: 500 });
    const plan = { steps: [narrowStep("n1"), narrowStep("n2"), narrowStep("n3"), workStep("w1", 50), workStep("w2", 50)] };
    const result = await clock.run(executePlan({ plan, tools: [work, narrow], clock, concurrency: 3 }));
    expect(result.status).toBe("completed");
    expect(narrowLog.peak).toBe(1);
    expect(log.started.filter((entry) => entry.step.startsWith("w")).map((entry) => entry.at)).toEqual([0, 0]);
    expect(clock.now()).toBe(150);
  });

  it("passes earlier outputs through placeholders, keeping their type", async () => {
    const clock = new FakeClock();
    const seen: unknown[] = [];
    const { defineTool } = await import("planloop");
    const { z } = await import("zod");
    const rows = defineTool({ name: "rows", description: "rows", input: z.object({}), execute: () => ({ rows: [{ total: 42 }] }) });
    const show = defineTool({
      name: "show",
      description: "show",
      input: z.object({ value: z.unknown(), text: z.string() }),
      execute: (args) => {
        seen.push(args);
        return "shown";
      },
    });
    const plan = {
      steps: [
        { id: 1, task: "get rows", tool: "rows", args: {} },
        { id: 2, task: "show", tool: "show", args: { value: "$1.rows[0]", text: "total is #E1.rows[0].total" }, depends_on: [1] },
      ],
    };
    const result = await executePlan({ plan, tools: [rows, show], clock });
    expect(result.status).toBe("completed");
    expect(seen).toEqual([{ value: { total: 42 }, text: "total is 42" }]);
  });

  it("draws a timeline with one lane per concurrently running step", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep(1, 30), workStep(2, 10), workStep(3, 10, [2])] };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock }));
    expect(result.timeline).toEqual([
      { stepId: "1", lane: 0, startedAt: 0, endedAt: 30, status: "succeeded", attempts: 1 },
      { stepId: "2", lane: 1, startedAt: 0, endedAt: 10, status: "succeeded", attempts: 1 },
      { stepId: "3", lane: 1, startedAt: 10, endedAt: 20, status: "succeeded", attempts: 1 },
    ]);
  });

  it("lays the timeline out when read, yet JSON, spreads and clones carry it like any field", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep(1, 30), workStep(2, 10, [1])] };
    const result = await clock.run(executePlan({ plan, tools: [tool], clock }));
    const bars = [
      { stepId: "1", lane: 0, startedAt: 0, endedAt: 30, status: "succeeded", attempts: 1 },
      { stepId: "2", lane: 0, startedAt: 30, endedAt: 40, status: "succeeded", attempts: 1 },
    ];
    expect((JSON.parse(JSON.stringify(result)) as { timeline: unknown }).timeline).toEqual(bars);
    expect({ ...result }.timeline).toEqual(bars);
    expect(structuredClone(result).timeline).toEqual(bars);
    expect(result.timeline).toBe(result.timeline);
    result.timeline = [];
    expect(result.timeline).toEqual([]);
  });

  it("emits plan and step events in order, JSON-safe, each step event with its step id", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const events: PlanloopEvent[] = [];
    const plan = { steps: [workStep(1, 10), workStep(2, 10, [1])] };
    await clock.run(executePlan({ plan, tools: [tool], clock, onEvent: (event) => events.push(event) }));
    expect(events.map((event) => `${event.type}${event.stepId === undefined ? "" : ` ${event.stepId}`}`)).toEqual([
      "plan-created",
      "step-ready 1",
      "step-start 1",
      "step-end 1",
      "step-ready 2",
      "step-start 2",
      "step-end 2",
      "run-end",
    ]);
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
    expect(events.at(-1)).toMatchObject({ status: "completed", durationMs: 20, usage: { toolCalls: 2 } });
  });
});
