// The trace of a stored run (planloop trace --run) is right while it runs and after it was
// continued: a run taken mid-way shows its status, its wall time so far and the step still
// running; a run continued after its process stopped shows the attempt cut short and the gap;
// a run that waited for a person shows the pause and when it went on.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, planAndExecute } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { childrenOf } from "../../src/strategies/stored-runs.js";
import { storedRunEvents } from "../../src/trace/stored-trace.js";
import { summarizeTrace } from "../../src/trace/trace-model.js";
import { abandoned, dyingLease, dyingStore, takeOver } from "../helpers/dying-store.js";

const never = () => new Promise<never>(() => {});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (done: () => boolean) => {
  for (let turn = 0; !done() && turn < 2_000; turn += 1) await pause(5);
};

function tools(hang: { now: boolean }) {
  const calls: string[] = [];
  return {
    calls,
    tools: [
      defineTool({
        name: "fetch",
        description: "fetches",
        input: z.object({}),
        execute: async () => (calls.push("fetch"), await pause(15), "rows"),
      }),
      defineTool({
        name: "sum",
        description: "sums",
        input: z.object({}),
        execute: async () => {
          calls.push("sum");
          if (hang.now) await never();
          return 42;
        },
      }),
    ],
  };
}
const plan = {
  steps: [
    { id: "a", task: "fetch", tool: "fetch", args: {} },
    { id: "b", task: "sum", tool: "sum", args: {}, depends_on: ["a"] },
  ],
};

describe("the trace of a stored run", () => {
  it("mid-run: status running, wall time so far, the step still running drawn as a bar; continued: the attempt cut short and the gap", async () => {
    const store = memoryStore();
    const hang = { now: true };
    const made = tools(hang);
    const dying = dyingStore(store);
    abandoned(executePlan({ plan, tools: made.tools, store: dying.store, runId: "r", lease: dyingLease }));
    await until(() => made.calls.includes("sum"));
    await pause(5);
    const midway = summarizeTrace(storedRunEvents((await store.getRun("r"))!, []));
    expect(midway.status).toBe("running");
    expect(midway.durationMs).toBeGreaterThan(0);
    expect(midway.bars.map((bar) => [bar.stepId, bar.status])).toEqual([
      ["a", "succeeded"],
      ["b", "running"],
    ]);
    expect(midway.notRun).toEqual([]);

    dying.die();
    hang.now = false;
    const continued = await executePlan({ plan, tools: made.tools, store, runId: "r", ...takeOver });
    expect(continued).toMatchObject({ status: "completed", output: 42 });
    const after = summarizeTrace(storedRunEvents((await store.getRun("r"))!, []));
    expect(after.status).toBe("completed");
    expect(after.bars.map((bar) => [bar.stepId, bar.status])).toEqual([
      ["a", "succeeded"],
      ["b", "interrupted"],
      ["b", "succeeded"],
    ]);
    expect(after.pauses).toHaveLength(1);
    expect(after.pauses[0]).toMatchObject({ status: "process stopped" });
    expect(after.pauses[0]!.resumedAt!).toBeGreaterThanOrEqual(after.pauses[0]!.at);
  });

  it("a run that waited for approval: the pause, its status, and when it went on", async () => {
    const store = memoryStore();
    const pay = defineTool({ name: "pay", description: "pays", input: z.object({}), needsApproval: true, execute: () => "paid" });
    const payPlan = { steps: [{ id: 1, task: "pay", tool: "pay", args: {} }] };
    expect(await executePlan({ plan: payPlan, tools: [pay], store, runId: "w" })).toMatchObject({ status: "waiting" });
    const waiting = summarizeTrace(storedRunEvents((await store.getRun("w"))!, []));
    expect(waiting.status).toBe("waiting");
    expect(waiting.pauses).toEqual([expect.objectContaining({ status: "waiting" })]);
    await pause(5);
    await executePlan({ plan: payPlan, tools: [pay], store, runId: "w", approvals: { "step:1": { approved: true } } });
    const done = summarizeTrace(storedRunEvents((await store.getRun("w"))!, []));
    expect(done.status).toBe("completed");
    expect(done.pauses[0]!.resumedAt).toBeDefined();
    expect(done.pauses[0]!.decided).toEqual([{ id: "step:1", decision: "approved", at: expect.any(Number) }]);
    expect(done.bars.at(-1)).toMatchObject({ stepId: "1", status: "succeeded" });
  });

  it("a strategy run continued after a pause: both processes' model calls and steps, the pause and the end", async () => {
    const store = memoryStore();
    const pay = defineTool({ name: "pay", description: "pays", input: z.object({}), needsApproval: true, execute: () => "paid" });
    const plan = JSON.stringify({ steps: [{ id: 1, task: "pay", tool: "pay", args: {} }] });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: plan } },
      { purpose: "solve", reply: { type: "final", content: "paid" } },
    ]);
    const first = await planAndExecute({ task: "pay", planner, tools: [pay], store, runId: "s" });
    expect(first.status).toBe("waiting");
    await pause(5);
    const done = await planAndExecute({
      task: "pay",
      planner,
      tools: [pay],
      store,
      runId: "s",
      approvals: { "step:1": { approved: true } },
    });
    expect(done.status).toBe("completed");
    // The result's own trace is the second process's only: it never saw the plan call.
    expect(done.trace.some((event) => event.type === "model-call-end" && event.purpose === "plan")).toBe(false);
    const run = (await store.getRun("s"))!;
    const summary = summarizeTrace(storedRunEvents(run, await childrenOf(store, "s")));
    expect(summary.status).toBe("completed");
    expect(summary.modelCalls.map((call) => call.purpose)).toEqual(["plan", "solve"]);
    expect(summary.pauses).toEqual([expect.objectContaining({ status: "waiting", resumedAt: expect.any(Number) })]);
    // The step as it waited for the approval, and as it ran once approved.
    expect(summary.bars.map((bar) => [bar.stepId, bar.status])).toEqual([
      ["1", "waiting"],
      ["1", "succeeded"],
    ]);
  });
});
