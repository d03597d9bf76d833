import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ModelCallError, runAgent, type PlanloopEvent, type ToolMessage } from "planloop";
import { ScriptedModel } from "planloop/testing";

const clock = defineTool({ name: "clock", description: "Current time", input: z.object({}), execute: () => "12:00" });
const echo = defineTool({
  name: "echo",
  description: "Echo text back",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const call = (id: string | number, name: string, args: unknown = {}) => ({ id, name, arguments: args });

describe("runAgent", () => {
  it("runs the seed's loop: tool round, then a final answer", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("t1", "clock")] },
      { type: "final", content: "done" },
    ]);
    const result = await runAgent({ model, tools: [clock], task: "What time is it?" });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("done");
    expect(result.steps).toBe(2);
    expect(result.messages).toEqual([
      { role: "user", content: "What time is it?" },
      { role: "assistant", toolCalls: [call("t1", "clock")] },
      { role: "tool", toolCallId: "t1", name: "clock", content: "12:00" },
      { role: "assistant", content: "done" },
    ]);
    expect(result.state).toBeUndefined();
    model.assertDone();
  });

  it("sends purpose, step, tool schemas and the history to the model", async () => {
    const model = new ScriptedModel([
      { purpose: "act", reply: { type: "tool_calls", calls: [call(1, "echo", { text: "hi" })] } },
      { purpose: "act", reply: { type: "final", content: "ok" } },
    ]);
    let seenSchema: unknown;
    await runAgent({
      model: (request) => {
        seenSchema ??= request.tools[0]?.inputSchema;
        return model.generate(request);
      },
      tools: [echo],
      messages: [{ role: "system", content: "be brief" }],
    });
    expect(seenSchema).toMatchObject({ properties: { text: { type: "string" } } });
    expect(model.requests.map((request) => request.step)).toEqual([0, 1]);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: 1, content: "hi" });
  });

  it("adds up usage from every decision and counts tool calls", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "clock"), call(2, "clock")], usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.01 } },
      { type: "final", content: "noon", usage: { inputTokens: 150, outputTokens: 5 } },
    ]);
    const result = await runAgent({ model, tools: [clock] });
    expect(result.usage).toEqual({ modelCalls: 2, inputTokens: 250, outputTokens: 25, costUsd: 0.01, toolCalls: 2 });
  });

  it("runs the calls of one decision concurrently, bounded, and appends results in call order", async () => {
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const wait = defineTool({
      name: "wait",
      description: "Wait for a signal",
      input: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return n;
      },
    });
    const calls = [0, 1, 2, 3, 4].map((n) => call(`c${n}`, "wait", { n }));
    const model = new ScriptedModel([
      { type: "tool_calls", calls },
      { type: "final", content: "ok" },
    ]);
    const pending = runAgent({ model, tools: [wait], toolConcurrency: 2 });
    for (let released = 0; released < 5; released += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      releases
        .splice(0)
        .reverse()
        .forEach((release) => release());
    }
    const result = await pending;
    expect(peak).toBe(2);
    const tools = result.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(tools.map((message) => message.toolCallId)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(tools.map((message) => message.content)).toEqual([0, 1, 2, 3, 4]);
  });

  it("turns every tool failure into a message and keeps going", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Always fails",
      input: z.object({}),
      execute: () => {
        throw new Error("database is down");
      },
    });
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "nope"), call(2, "echo", { txt: 1 }), call(3, "broken")] },
      { type: "final", content: "could not do it" },
    ]);
    const result = await runAgent({ model, tools: [echo, broken] });
    expect(result.status).toBe("completed");
    const errors = result.messages.flatMap((message) => (message.role === "tool" ? [message.error?.kind] : []));
    expect(errors).toEqual(["unknown_tool", "invalid_arguments", "execution_failed"]);
    expect(result.lastError).toMatchObject({ source: "tool", kind: "execution_failed", name: "broken", toolCallId: 3 });
    expect(model.requests[1]?.messages.find((message) => message.role === "tool" && message.toolCallId === 2)).toMatchObject({
      content: expect.stringContaining("text: missing (required)"),
    });
  });

  it("passes signal, call id and step to the seed-style executor", async () => {
    const seen: unknown[] = [];
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call("a", "x")] },
      { type: "final", content: "ok" },
    ]);
    await runAgent({
      model,
      toolExecutor: {
        execute: (toolCall, context) => {
          seen.push(toolCall.name, context.callId, context.step, context.signal instanceof AbortSignal);
          return { ok: true };
        },
      },
    });
    expect(seen).toEqual(["x", "a", 0, true]);
  });

  it("emits numbered, JSON-safe events, and a throwing listener changes nothing", async () => {
    const events: PlanloopEvent[] = [];
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [call(1, "clock")] },
      { type: "final", content: "noon" },
    ]);
    const result = await runAgent({
      model,
      tools: [clock],
      onEvent: (event) => {
        events.push(event);
        throw new Error("listener bug");
      },
    });
    expect(result.status).toBe("completed");
    expect(events.map((event) => event.type)).toEqual([
      "agent-start",
      "agent-step-start",
      "model-call-start",
      "model-call-end",
      "tool-call-start",
      "tool-call-end",
      "agent-step-start",
      "model-call-start",
      "model-call-end",
      "verify-end",
      "agent-end",
    ]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
    expect(events.find((event) => event.type === "tool-call-end")).toMatchObject({ status: "ok", preview: "12:00" });
  });

  it("throws on a decision with no action, and keeps the state in the error", async () => {
    for (const decision of [null, { type: "tool_calls", calls: [] }, { type: "final" }, { type: "think" }]) {
      const promise = runAgent({ model: async () => decision as never, tools: [] });
      await expect(promise).rejects.toThrow(/no actionable decision/);
      await expect(promise).rejects.toMatchObject({ name: "InvalidDecisionError", state: { steps: 1 } });
    }
    const duplicate = runAgent({ model: async () => ({ type: "tool_calls", calls: [call(1, "a"), call(1, "b")] }), tools: [] });
    await expect(duplicate).rejects.toThrow(/used twice/);
  });

  it("wraps a failing model in ModelCallError that keeps what was done", async () => {
    let calls = 0;
    const promise = runAgent({
      model: async () => {
        calls += 1;
        if (calls === 1) return { type: "tool_calls", calls: [call(1, "clock")] };
        throw new Error("502 from provider");
      },
      tools: [clock],
    });
    await expect(promise).rejects.toMatchObject({ name: "ModelCallError", message: expect.stringContaining("502") });
    const error: unknown = await promise.catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).state).toMatchObject({ steps: 1, messages: [{ role: "assistant" }, { role: "tool" }] });
  });

  it.each([
    [{}, /model must be/],
    [{ model: () => ({}) }, /tools .* or a toolExecutor/],
    [{ model: () => ({}), tools: [], toolExecutor: { execute: () => 1 } }, /either tools or toolExecutor/],
    [{ model: () => ({}), toolExecutor: {} }, /execute/],
    [{ model: () => ({}), tools: [], maxSteps: 0 }, /maxSteps/],
    [{ model: () => ({}), tools: [], maxSteps: 1.5 }, /maxSteps/],
    [{ model: () => ({}), tools: [], messages: "hi" }, /messages/],
    [{ model: () => ({}), tools: [], budget: { maxTokens: "10" } }, /maxTokens/],
    [{ model: () => ({}), tools: [], resume: { kind: "other" } }, /not a runAgent state/],
    [{ model: () => ({}), tools: [{ name: "x" }] }, /defineTool/],
    [{ model: () => ({}), tools: [clock, clock] }, /two tools are named "clock"/],
  ])("throws a TypeError for bad options %#", async (options, message) => {
    await expect(runAgent(options as never)).rejects.toThrow(TypeError);
    await expect(runAgent(options as never)).rejects.toThrow(message);
  });
});
