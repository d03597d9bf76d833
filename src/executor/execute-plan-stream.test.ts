import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, type CheckpointStore, type PlanInput } from "planloop";
import { FakeClock } from "planloop/testing";
import { workStep, workTool } from "../../test/helpers/timed-tools.js";
import { executePlanStream } from "./execute-plan-stream.js";

async function* arriving<T>(clock: FakeClock, items: Array<{ at: number; item: T }>): AsyncGenerator<T> {
  for (const { at, item } of items) {
    if (at > clock.now()) await clock.sleep(at - clock.now());
    yield item;
  }
}

describe("executePlanStream", () => {
  it("starts each step as soon as it arrives and its dependencies are done", async () => {
    const clock = new FakeClock();
    const { tool, log } = workTool(clock);
    const steps = arriving(clock, [
      { at: 0, item: workStep(1, 50) },
      { at: 20, item: workStep(2, 10) },
      { at: 30, item: workStep(3, 10, [1, 2]) },
      { at: 100, item: workStep(4, 10, [2]) },
    ]);
    const result = await clock.run(executePlanStream({ steps, tools: [tool], clock }));
    expect(result.status).toBe("completed");
    expect(log.started).toEqual([
      { step: "1", at: 0 },
      { step: "2", at: 20 },
      { step: "3", at: 50 },
      { step: "4", at: 100 },
    ]);
    expect(result.plan.steps.map((step) => step.id)).toEqual([1, 2, 3, 4]);
    expect(Object.keys(result.output as object)).toEqual(["3", "4"]);
  });

  it("lets a streamed step use the output of a step it depends on through another, and fails one that uses an unrelated step", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const uses = (id: number, reference: string) => ({ id, task: "t", tool: "work", args: { step: reference, ms: 1 }, depends_on: [2] });
    const steps = arriving<PlanInput["steps"][number]>(clock, [
      { at: 0, item: workStep(1, 5) },
      { at: 0, item: workStep(2, 5, [1]) },
      { at: 0, item: uses(3, "${1}.step") },
      { at: 0, item: uses(4, "${3}.step") },
    ]);
    const result = await clock.run(executePlanStream({ steps, tools: [tool], clock }));
    expect(result.steps["3"]).toMatchObject({ status: "succeeded", output: { step: "1" } });
    expect(result.steps["4"]).toMatchObject({
      status: "failed",
      error: "step 4 uses ${3}.step but does not depend on step 3; add 3 to its depends_on",
    });
  });

  it("fails a step that fails its checks, skips what depends on it, and runs the rest", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const steps = arriving<PlanInput["steps"][number]>(clock, [
      { at: 0, item: { id: 1, task: "t", tool: "nope", args: {} } },
      { at: 0, item: workStep(2, 5, [1]) },
      { at: 0, item: workStep(3, 5) },
      { at: 0, item: workStep(3, 5) },
    ]);
    const result = await clock.run(executePlanStream({ steps, tools: [tool], clock }));
    expect(result.status).toBe("failed");
    expect(result.steps["1"]).toMatchObject({ status: "failed", error: expect.stringContaining('tool "nope"') });
    expect(result.steps["2"]).toMatchObject({ status: "skipped" });
    expect(result.steps["3"]).toMatchObject({ status: "succeeded" });
    expect(result.reason).toContain("step id 3 is used twice");
  });

  it("runs what arrived when the stream breaks, and says why", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    async function* broken() {
      yield workStep(1, 5);
      throw new Error("connection reset");
    }
    const result = await clock.run(executePlanStream({ steps: broken(), tools: [tool], clock }));
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("connection reset") });
    expect(result.steps["1"]?.status).toBe("succeeded");
  });

  it("gives the same result as executePlan for a plan that arrives at once", async () => {
    const clock = new FakeClock();
    const { tool } = workTool(clock);
    const plan = { steps: [workStep(1, 30), workStep(2, 10), workStep(3, 10, [1, 2])] };
    const streamed = await clock.run(
      executePlanStream({
        steps: arriving(
          clock,
          plan.steps.map((item) => ({ at: 0, item })),
        ),
        tools: [tool],
        clock,
      }),
    );
    const whole = await clock.run(executePlan({ plan, tools: [tool], clock }));
    const shape = (result: typeof whole) =>
      Object.fromEntries(Object.entries(result.steps).map(([id, record]) => [id, [record.status, record.endedAt! - record.startedAt!]]));
    expect(shape(streamed)).toEqual(shape(whole));
  });

  it("a streamed run continued by id after its plan was written keeps its lease: it is never given up in between", async () => {
    const store = memoryStore();
    const leases: string[] = [];
    const watched: CheckpointStore = {
      ...store,
      acquireLease: (runId, lease) => (leases.push("take"), store.acquireLease(runId, lease)),
      releaseLease: (runId, token) => (leases.push("give up"), store.releaseLease(runId, token)),
    };
    const pay = defineTool({
      name: "pay",
      description: "pay",
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: () => "paid",
    });
    async function* planned() {
      yield { id: 1, task: "pay", tool: "pay", args: { amount: 5 }, depends_on: [] };
    }
    const first = await executePlanStream({ steps: planned(), tools: [pay], store: watched, runId: "streamed-1" });
    expect(first.status).toBe("waiting");
    leases.length = 0;
    const continued = await executePlanStream({
      steps: planned(),
      tools: [pay],
      store: watched,
      runId: "streamed-1",
      approvals: { [first.pending![0]!.id]: { approved: true } },
    });
    expect(continued).toMatchObject({ status: "completed", output: "paid" });
    expect(leases).toEqual(["take", "give up"]);
  });
});
