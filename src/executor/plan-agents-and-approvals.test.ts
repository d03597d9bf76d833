import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, toolStepCallId, type PlanloopEvent } from "planloop";
import { FakeClock, ScriptedModel } from "planloop/testing";

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function counters() {
  const calls: Record<string, number> = {};
  const tool = (name: string, options: { needsApproval?: boolean; output?: unknown } = {}) =>
    defineTool({
      name,
      description: name,
      input: z.object({}).passthrough(),
      ...(options.needsApproval ? { needsApproval: true } : {}),
      execute: () => {
        calls[name] = (calls[name] ?? 0) + 1;
        return options.output ?? `${name} output`;
      },
    });
  return { calls, tool };
}

describe("agent steps", () => {
  it("run an inner loop with the dependencies' outputs, the step's own maxSteps, usage charged to the run", async () => {
    const { calls, tool } = counters();
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "x", name: "lookup", arguments: {} }], usage: { inputTokens: 100, outputTokens: 10 } },
      { type: "final", content: "metrics computed", usage: { inputTokens: 120, outputTokens: 5 } },
    ]);
    const events: PlanloopEvent[] = [];
    const result = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "query orders", tool: "orders" },
          { id: 2, task: "compute metrics", depends_on: [1], budget: { maxSteps: 3 } },
        ],
      },
      tools: [tool("orders", { output: { count: 7 } }), tool("lookup")],
      model,
      onEvent: (event) => events.push(event),
    });
    expect(result).toMatchObject({ status: "completed", output: "metrics computed" });
    expect(result.usage).toEqual({ modelCalls: 2, inputTokens: 220, outputTokens: 15, costUsd: 0, toolCalls: 2 });
    expect(calls).toEqual({ orders: 1, lookup: 1 });
    const firstMessage = model.requests[0]!.messages[0]!;
    expect(firstMessage).toMatchObject({ role: "user", content: expect.stringContaining("Step 2: compute metrics") });
    expect(firstMessage.role === "user" && firstMessage.content).toContain('{"count":7}');
    expect(events.filter((event) => event.type === "model-call-end").every((event) => event.stepId === 2)).toBe(true);
    expect(events.filter((event) => event.type === "tool-call-end").map((event) => event.stepId)).toEqual([2]);
  });

  it("an inner loop stops when the run's budget is spent, and the run says so", async () => {
    const { tool } = counters();
    const looping = async ({ step }: { step: number }) => ({
      type: "tool_calls" as const,
      calls: [{ id: `c${step}`, name: "lookup", arguments: { step } }],
      usage: { inputTokens: 100, outputTokens: 0 },
    });
    const result = await executePlan({
      plan: {
        steps: [
          { id: "a", task: "explore", budget: { maxSteps: 50 } },
          { id: "b", task: "more", depends_on: ["a"] },
        ],
      },
      tools: [tool("lookup")],
      model: looping,
      budget: { maxTokens: 250 },
    });
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxTokens" });
    expect(result.usage.inputTokens).toBe(200);
    expect(result.steps.a).toMatchObject({ status: "failed", error: expect.stringContaining("budget_exceeded") });
    expect(result.steps.b?.status).toBe("skipped");
  });

  it("a model that throws fails only its step", async () => {
    const { tool } = counters();
    const result = await executePlan({
      plan: {
        steps: [
          { id: 1, task: "think" },
          { id: 2, task: "fetch", tool: "fetch" },
        ],
      },
      tools: [tool("fetch")],
      model: () => {
        throw new Error("provider down");
      },
    });
    expect(result.status).toBe("failed");
    expect(result.steps["1"]).toMatchObject({ status: "failed", error: expect.stringContaining("provider down") });
    expect(result.steps["2"]?.status).toBe("succeeded");
  });
});

describe("waiting for approval in a plan", () => {
  it("runs everything else, returns waiting with the pending call, and resumes without re-running finished steps", async () => {
    const { calls, tool } = counters();
    const tools = [tool("orders"), tool("refund", { needsApproval: true }), tool("tickets"), tool("report")];
    const plan = {
      steps: [
        { id: 1, task: "orders", tool: "orders" },
        { id: 2, task: "refund", tool: "refund", args: { order: "A1" } },
        { id: 3, task: "tickets", tool: "tickets", depends_on: [1] },
        { id: 4, task: "report", tool: "report", depends_on: [2, 3] },
      ],
    };
    const paused = await executePlan({ plan, tools });
    expect(paused.status).toBe("waiting");
    expect(paused.pending).toEqual([
      {
        id: "step:2",
        stepId: 2,
        callId: toolStepCallId(2),
        name: "refund",
        arguments: { order: "A1" },
        kind: "approval",
        digest: expect.any(String),
      },
    ]);
    expect(paused.steps["4"]).toMatchObject({ status: "waiting", error: "waits for step 2" });
    expect(calls).toEqual({ orders: 1, tickets: 1 });
    const resumed = await executePlan({ plan, tools, resume: roundTrip(paused.state!), approvals: { "step:2": { approved: true } } });
    expect(resumed).toMatchObject({ status: "completed", output: "report output" });
    expect(calls).toEqual({ orders: 1, tickets: 1, refund: 1, report: 1 });
    expect(resumed.usage.toolCalls).toBe(4);
  });

  it("a denied call fails its step and skips what depends on it", async () => {
    const { calls, tool } = counters();
    const tools = [tool("refund", { needsApproval: true }), tool("report")];
    const plan = {
      steps: [
        { id: 1, task: "refund", tool: "refund" },
        { id: 2, task: "report", tool: "report", depends_on: [1] },
      ],
    };
    const paused = await executePlan({ plan, tools });
    const resumed = await executePlan({
      plan,
      tools,
      resume: paused.state!,
      approvals: { "step:1": { approved: false, reason: "not today" } },
    });
    expect(resumed.status).toBe("failed");
    expect(resumed.steps["1"]).toMatchObject({ status: "failed", error: 'the call to "refund" was denied: not today' });
    expect(resumed.steps["2"]?.status).toBe("skipped");
    expect(calls).toEqual({});
  });

  it("an agent step that waits resumes its inner loop with the approval", async () => {
    const { calls, tool } = counters();
    const tools = [tool("refund", { needsApproval: true })];
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "r1", name: "refund", arguments: {} }] },
      { type: "final", content: "refunded" },
    ]);
    const plan = { steps: [{ id: "fix", task: "refund the order" }] };
    const clock = new FakeClock();
    const paused = await executePlan({ plan, tools, model, clock });
    expect(paused.status).toBe("waiting");
    expect(paused.pending).toEqual([
      { id: "call:0:0@fix", stepId: "fix", callId: "r1", name: "refund", arguments: {}, kind: "approval", digest: expect.any(String) },
    ]);
    const resumed = await executePlan({
      plan,
      tools,
      model,
      clock,
      resume: roundTrip(paused.state!),
      approvals: { r1: { approved: true } },
    });
    expect(resumed).toMatchObject({ status: "completed", output: "refunded" });
    expect(calls).toEqual({ refund: 1 });
    model.assertDone();
  });
});
