// ReWOO, LLMCompiler and ReAct as a strategy pause for a human like Plan-and-Execute does,
// and resume from JSON.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, llmCompiler, react, rewoo } from "planloop";
import { ScriptedModel } from "planloop/testing";

function refundTools() {
  const calls: string[] = [];
  const lookup = defineTool({
    name: "order",
    description: "Look up an order",
    input: z.object({ id: z.string() }),
    execute: ({ id }) => (calls.push(`order ${id}`), { id, amount: 120 }),
  });
  const refund = defineTool({
    name: "refund",
    description: "Refund an amount",
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (calls.push(`refund ${amount}`), `refunded ${amount}`),
  });
  return { calls, tools: [lookup, refund] };
}

const text = (content: string) => ({ type: "final" as const, content });

/** A ReWOO planner: look the order up, refund its amount (needs approval), then `solution`. */
const rewooPlanner = (solution: string) =>
  new ScriptedModel([
    { purpose: "plan", reply: text('#E1 = order[{"id": "A7"}]\n#E2 = refund[{"amount": "#E1.amount"}]') },
    { purpose: "solve", reply: text(solution) },
  ]);

describe("resuming ReWOO", () => {
  it("pauses at the approval, then runs the rest without planning again or repeating a call", async () => {
    const { calls, tools } = refundTools();
    const planner = rewooPlanner("Refunded 120 for A7");
    const paused = await rewoo({ task: "refund A7", planner, tools });
    expect(paused).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ callId: "step:2", name: "refund", arguments: { amount: 120 } })],
    });
    expect(paused.state?.kind).toBe("planloop/rewoo-state");
    const state = JSON.parse(JSON.stringify(paused.state));
    const resumed = await rewoo({ task: "refund A7", planner, tools, resume: state, approvals: { "step:2": { approved: true } } });
    expect(resumed).toMatchObject({ status: "completed", output: "Refunded 120 for A7" });
    expect(calls).toEqual(["order A7", "refund 120"]);
    expect(resumed.usage.toolCalls).toBe(2);
    expect(resumed.usage.modelCalls).toBe(paused.usage.modelCalls + 1);
    planner.assertDone();
  });

  it("reports a denied call as a failed plan, and refuses another strategy's state", async () => {
    const { calls, tools } = refundTools();
    const planner = rewooPlanner("Could not refund A7");
    const paused = await rewoo({ task: "refund A7", planner, tools });
    const denied = await rewoo({
      task: "refund A7",
      planner,
      tools,
      resume: paused.state,
      approvals: { "step:2": { approved: false, reason: "over the limit" } },
    });
    expect(denied.status).toBe("failed");
    expect(denied.reason).toMatch(/denied: over the limit/);
    expect(calls).toEqual(["order A7"]);
    await expect(llmCompiler({ task: "refund A7", planner, tools, resume: paused.state as never })).rejects.toThrow(
      /not a llmCompiler state/,
    );
  });

  it("refuses to resume with tools the paused plan no longer fits, and names the missing tool", async () => {
    const { tools } = refundTools();
    const paused = await rewoo({ task: "refund A7", planner: rewooPlanner("unused"), tools });
    const withoutRefund = tools.filter((tool) => tool.name !== "refund");
    await expect(
      rewoo({
        task: "refund A7",
        planner: rewooPlanner("unused"),
        tools: withoutRefund,
        resume: paused.state,
        approvals: { "step:2": { approved: true } },
      }),
    ).rejects.toThrow(/resume: the paused plan does not fit the tools given.*"refund", which does not exist/);
  });
});

describe("resuming LLMCompiler", () => {
  it("finishes the paused plan, asks the joiner, and can still replan after", async () => {
    const { calls, tools } = refundTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text('1. order({"id": "A7"})\n2. refund({"amount": "$1.amount"})\n3. join()') },
      { purpose: "join", reply: text("REPLAN: confirm the order again") },
      { purpose: "replan", reply: text('1. order({"id": "A7"})\n2. join()') },
      { purpose: "join", reply: text("FINISH: refunded 120") },
    ]);
    const paused = await llmCompiler({ task: "refund A7", planner, tools });
    expect(paused).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ callId: "step:2", arguments: { amount: 120 } })],
    });
    const state = JSON.parse(JSON.stringify(paused.state));
    expect(state.kind).toBe("planloop/llm-compiler-state");
    const resumed = await llmCompiler({ task: "refund A7", planner, tools, resume: state, approvals: { "step:2": { approved: true } } });
    expect(resumed).toMatchObject({ status: "completed", output: "refunded 120", replans: 1 });
    expect(resumed.planVersions).toHaveLength(2);
    expect(calls).toEqual(["order A7", "refund 120", "order A7"]);
    planner.assertDone();
  });
});

describe("resuming ReAct as a strategy", () => {
  it("hands back the pending call and the loop's state, and continues from them", async () => {
    const { calls, tools } = refundTools();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "c1", name: "refund", arguments: { amount: 120 } }] },
      text("Refunded 120"),
    ]);
    const paused = await react({ task: "refund 120", model, tools });
    expect(paused).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ callId: "c1", name: "refund" })] });
    expect(paused.state?.kind).toBe("planloop/agent-state");
    const resumed = await react({
      task: "refund 120",
      model,
      tools,
      resume: JSON.parse(JSON.stringify(paused.state)),
      approvals: { c1: { approved: true } },
    });
    expect(resumed).toMatchObject({ status: "completed", output: "Refunded 120" });
    expect(calls).toEqual(["refund 120"]);
    expect(resumed.usage.modelCalls).toBe(2);
    model.assertDone();
  });
});
