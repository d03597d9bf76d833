// Results are unions discriminated by `status`: a check of the status is all a caller needs
// before reading what that status promises. tsc checks the types here; vitest runs the rest.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, planAndExecute, runAgent, type AgentState, type PlanPendingCall, type PlanRunState } from "planloop";
import { ScriptedModel } from "planloop/testing";

const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  input: z.object({ order_id: z.string() }),
  execute: () => "refunded",
  needsApproval: true,
});

describe("results narrowed by status", () => {
  it("runAgent: completed has a string output; waiting has pending and state", async () => {
    const done = await runAgent({ model: async () => ({ type: "final", content: "hi" }), tools: [] });
    if (done.status === "completed") expectTypeOf(done.output).toEqualTypeOf<string>();
    expect(done.status).toBe("completed");

    const model = async () => ({ type: "tool_calls" as const, calls: [{ id: "c1", name: "refund", arguments: { order_id: "A1" } }] });
    const paused = await runAgent({ model, tools: [refund] });
    if (paused.status === "waiting") {
      expectTypeOf(paused.state).toEqualTypeOf<AgentState>();
      expect(paused.pending.map((call) => call.name)).toEqual(["refund"]);
    }
    if (paused.status === "budget_exceeded") expectTypeOf(paused.limit).not.toBeUndefined();
    expect(paused.status).toBe("waiting");
  });

  it("executePlan: every status but completed has a reason and a state; waiting lists what is pending", async () => {
    const result = await executePlan({
      plan: { steps: [{ id: 1, task: "refund", tool: "refund", args: { order_id: "A1" } }] },
      tools: [refund],
    });
    expect(result.status).toBe("waiting");
    if (result.status === "waiting") {
      expectTypeOf(result.pending).toEqualTypeOf<PlanPendingCall[]>();
      expectTypeOf(result.state).toEqualTypeOf<PlanRunState>();
      expectTypeOf(result.reason).toEqualTypeOf<string>();
      expect(result.pending[0]!.stepId).toBe(1);
    }
  });

  it("planAndExecute: completed has a string output", async () => {
    const planner = new ScriptedModel([
      { type: "final", content: JSON.stringify({ steps: [{ id: 1, task: "say hi", tool: "hello", args: {} }] }) },
      { type: "final", content: "hello there" },
    ]);
    const hello = defineTool({ name: "hello", description: "greets", input: z.object({}), execute: () => "hi" });
    const result = await planAndExecute({ task: "greet", planner, tools: [hello] });
    if (result.status === "completed") expectTypeOf(result.output).toEqualTypeOf<string>();
    expect(result).toMatchObject({ status: "completed", output: "hello there" });
  });
});
