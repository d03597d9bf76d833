import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, runAgent, type AgentOptions } from "planloop";
import { ScriptedModel } from "planloop/testing";

const call = (id: string | number, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function refundSetup() {
  const executed: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refund an order",
    input: z.object({ order_id: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount >= 100,
    execute: ({ order_id }) => {
      executed.push(`refund ${order_id}`);
      return { refunded: order_id };
    },
  });
  const lookup = defineTool({
    name: "lookup",
    description: "Look up an order",
    input: z.object({ order_id: z.string() }),
    execute: ({ order_id }) => {
      executed.push(`lookup ${order_id}`);
      return { order_id, status: "paid" };
    },
  });
  return { executed, tools: [refund, lookup] };
}

describe("waiting and resume", () => {
  it("pauses on a call that needs approval while the other calls of the round run", async () => {
    const { executed, tools } = refundSetup();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("r1", "refund", { order_id: "A", amount: 250 }), call("l1", "lookup", { order_id: "A" })] },
    ]);
    const result = await runAgent({ model, tools, task: "refund A" });
    expect(result.status).toBe("waiting");
    expect(result.pending).toEqual([
      {
        id: "call:0:0",
        callId: "r1",
        name: "refund",
        arguments: { order_id: "A", amount: 250 },
        kind: "approval",
        digest: expect.any(String),
      },
    ]);
    expect(executed).toEqual(["lookup A"]);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "l1" });
    expect(roundTrip(result.state)).toEqual(result.state);
  });

  it("an approved call runs exactly once after resume; nothing that ran runs again", async () => {
    const { executed, tools } = refundSetup();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("r1", "refund", { order_id: "A", amount: 250 }), call("l1", "lookup", { order_id: "A" })] },
      { type: "final", content: "refunded" },
    ]);
    const options: AgentOptions = { model, tools, task: "refund A" };
    const paused = await runAgent(options);
    const resumed = await runAgent({ ...options, resume: roundTrip(paused.state!), approvals: { r1: { approved: true } } });
    expect(resumed).toMatchObject({ status: "completed", output: "refunded", steps: 2 });
    expect(executed).toEqual(["lookup A", "refund A"]);
    const toolMessages = resumed.messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.toolCallId)).toEqual(["r1", "l1"]);
    expect(model.requests[1]?.messages).toHaveLength(4);
    expect(resumed.usage.toolCalls).toBe(2);
  });

  it("a denied call becomes a tool message with the reason", async () => {
    const { executed, tools } = refundSetup();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(7, "refund", { order_id: "B", amount: 900 })] },
      { type: "final", content: "could not refund" },
    ]);
    const options: AgentOptions = { model, tools };
    const paused = await runAgent(options);
    const resumed = await runAgent({
      ...options,
      resume: roundTrip(paused.state!),
      approvals: { 7: { approved: false, reason: "amount too high" } },
    });
    expect(resumed.status).toBe("completed");
    expect(executed).toEqual([]);
    expect(resumed.messages.find((message) => message.role === "tool")).toMatchObject({
      toolCallId: 7,
      error: { kind: "denied", message: expect.stringContaining("amount too high") },
    });
  });

  it("stays waiting without a model call when no decision is given", async () => {
    const { tools } = refundSetup();
    const model = new ScriptedModel([{ type: "tool_calls", calls: [call("r1", "refund", { order_id: "A", amount: 250 })] }]);
    const paused = await runAgent({ model, tools });
    const again = await runAgent({ model, tools, resume: paused.state! });
    expect(again.status).toBe("waiting");
    expect(again.pending).toEqual(paused.pending);
    expect(model.requests).toHaveLength(1);
  });

  it("a call under the approval threshold runs without pausing", async () => {
    const { executed, tools } = refundSetup();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("r1", "refund", { order_id: "C", amount: 5 })] },
      { type: "final", content: "done" },
    ]);
    expect((await runAgent({ model, tools })).status).toBe("completed");
    expect(executed).toEqual(["refund C"]);
  });

  it("the model can ask the user a question and resume with the answer", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("q1", "ask_user", { question: "Which week?" })] },
      (request) => {
        const answer = request.messages.at(-1);
        return { type: "final", content: `report for ${answer?.role === "tool" ? String(answer.content) : "?"}` };
      },
    ]);
    const options: AgentOptions = { model, tools: [askUser()] };
    const paused = await runAgent(options);
    expect(paused.status).toBe("waiting");
    expect(paused.pending).toEqual([
      {
        id: "call:0:0",
        callId: "q1",
        name: "ask_user",
        arguments: { question: "Which week?" },
        kind: "input",
        question: "Which week?",
        digest: expect.any(String),
      },
    ]);
    const resumed = await runAgent({ ...options, resume: roundTrip(paused.state!), answers: { q1: "week 46" } });
    expect(resumed).toMatchObject({ status: "completed", output: "report for week 46" });
  });

  it("resuming after max_steps continues from the saved history and counters", async () => {
    const { tools } = refundSetup();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "lookup", { order_id: "A" })], usage: { inputTokens: 10, outputTokens: 1 } },
      { type: "final", content: "paid", usage: { inputTokens: 20, outputTokens: 1 } },
    ]);
    const first = await runAgent({ model, tools, maxSteps: 1 });
    expect(first.status).toBe("max_steps_exceeded");
    const second = await runAgent({ model, tools, maxSteps: 2, resume: roundTrip(first.state!) });
    expect(second).toMatchObject({ status: "completed", steps: 2, usage: { modelCalls: 2, inputTokens: 30, toolCalls: 1 } });
  });
});
