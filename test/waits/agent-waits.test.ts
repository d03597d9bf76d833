import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, runAgent, wakeDueRuns, type AgentOptions } from "planloop";
import { waitStores } from "../helpers/wait-stores.js";
import { FakeClock, ScriptedModel } from "planloop/testing";

const monday = Date.parse("2026-12-07T08:00:00Z");
const hour = 3_600_000;

/** The export's status: not there before 09:00 on the run's clock, there after. */
function exportTool(clock: FakeClock) {
  return defineTool({
    name: "export_status",
    description: "whether the warehouse export has landed",
    input: z.object({}),
    execute: () => (clock.now() >= monday + hour ? "landed: 1200 rows" : "not yet"),
  });
}

/** A model that checks, waits an hour with wait_until, checks again and answers. */
function checkingModel(wait: Record<string, unknown> = { forMs: hour, reason: "the export lands around 09:00" }) {
  return new ScriptedModel([
    { type: "tool_calls", calls: [{ id: "c1", name: "export_status", arguments: {} }] },
    { type: "tool_calls", calls: [{ id: "c2", name: "wait_until", arguments: wait }] },
    { type: "tool_calls", calls: [{ id: "c3", name: "export_status", arguments: {} }] },
    { type: "final", content: "the export landed with 1200 rows" },
  ]);
}

const stores = waitStores;

describe("wait_until in a ReAct loop (waitTools)", () => {
  it("sleeps on the run's clock without a store, spending no model call while it waits", async () => {
    const clock = new FakeClock(monday);
    const model = checkingModel();
    const result = await clock.run(
      runAgent({ model, tools: [exportTool(clock)], task: "report when the export lands", waitTools: true, clock }),
      {
        limitMs: 2 * hour,
      },
    );
    expect(result.status).toBe("completed");
    expect(model.requests).toHaveLength(4);
    expect(model.requests[0]!.toolNames).toEqual(["export_status", "wait_until"]);
    expect(result.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      "not yet",
      "woke at 2026-12-07T09:00:00.000Z (waited until 2026-12-07T09:00:00.000Z)",
      "landed: 1200 rows",
    ]);
    expect(result.usage.toolCalls).toBe(3);
  });

  it.each(stores)("keep a durable loop waiting with nothing held, and go on when a wake pass finds it due (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const model = checkingModel({ until: "2026-12-07T10:00:00+01:00" });
    const options: AgentOptions = {
      model,
      tools: [exportTool(clock)],
      task: "report when the export lands",
      waitTools: true,
      clock,
      store,
      runId: "export",
    };
    const first = await runAgent(options);
    expect(first).toMatchObject({ status: "waiting", pending: [], wakeAt: "2026-12-07T09:00:00.000Z" });
    expect(first.reason).toBe("waiting for wait_until: 2026-12-07T09:00:00.000Z");
    expect(clock.pendingTimers).toBe(0);
    expect(model.requests).toHaveLength(2);

    const continueRun = () => runAgent(options);
    await clock.advance(hour - 1);
    expect((await wakeDueRuns({ store, continueRun, clock })).woken).toEqual([]);
    await clock.advance(1);
    expect(await wakeDueRuns({ store, continueRun, clock })).toEqual({
      woken: [{ runId: "export", status: "completed" }],
      busy: [],
      failed: [],
    });
    expect(model.requests).toHaveLength(4);
    const done = await runAgent(options);
    expect(done).toMatchObject({ status: "completed", output: "the export landed with 1200 rows" });
    expect(model.requests).toHaveLength(4);
  });

  it.each(stores)("keep a plan's agent step waiting with agentWaitTools, and a wake pass finishes the plan (%s)", async (_, open) => {
    const store = open();
    const clock = new FakeClock(monday);
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "c1", name: "wait_until", arguments: { forMs: 2 * hour } }] },
      { type: "final", content: "checked after two hours" },
    ]);
    const plan = { steps: [{ id: 1, task: "check back in two hours" }] };
    const options = { plan, tools: [], model, store, runId: "agent-step", clock, agentWaitTools: true };
    const first = await executePlan(options);
    expect(first.status).toBe("waiting");
    expect(first.waits).toEqual([{ stepId: 1, kind: "timer", until: "2026-12-07T10:00:00.000Z" }]);
    await clock.advance(hour);
    expect((await wakeDueRuns({ store, model, clock })).woken).toEqual([]);
    await clock.advance(hour);
    expect((await wakeDueRuns({ store, model, clock })).woken).toEqual([{ runId: "agent-step", status: "completed" }]);
    expect(model.requests).toHaveLength(2);
    expect((await executePlan(options)).output).toBe("checked after two hours");
  });

  it("hand the model an error for a wait_until that names no time, and go on", async () => {
    const clock = new FakeClock(monday);
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "c1", name: "wait_until", arguments: { until: "soon" } }] },
      { type: "final", content: "gave up waiting" },
    ]);
    const result = await runAgent({ model, tools: [], task: "wait", waitTools: true, clock });
    expect(result.status).toBe("completed");
    const tool = result.messages.find((message) => message.role === "tool");
    expect(tool).toMatchObject({ error: { kind: "invalid_arguments", message: expect.stringContaining("wait_until takes until") } });
  });

  it("are offered only with waitTools, and refused beside a tool of that name or a toolExecutor", async () => {
    const model = new ScriptedModel([{ type: "final", content: "ok" }]);
    await runAgent({ model, tools: [], task: "x" });
    expect(model.requests[0]!.toolNames).toEqual([]);
    const own = defineTool({ name: "wait_until", description: "mine", input: z.object({}), execute: () => "x" });
    await expect(runAgent({ model, tools: [own], task: "x", waitTools: true })).rejects.toThrow(/tools has one already: rename yours/);
    await expect(runAgent({ model, toolExecutor: { execute: () => "x" }, task: "x", waitTools: true })).rejects.toThrow(/pass tools/);
  });
});
