import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, fromAISDK, llmCompiler, runAgent, type PlanloopEvent } from "planloop";
import { MockModel, simulateReadableStream } from "../helpers/ai-sdk-mock.js";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const finish = { unified: "stop", raw: undefined } as const;
const weather = defineTool({
  name: "weather",
  description: "Weather",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 18°C`,
});

describe("fromAISDK", () => {
  it("runs a ReAct loop on an AI SDK model: tools out, tool results back, usage and cost", async () => {
    const mock = new MockModel({
      modelId: "gpt-4o",
      doGenerate: [
        {
          content: [{ type: "tool-call", toolCallId: "t1", toolName: "weather", input: '{"city":"Paris"}' }],
          finishReason: finish,
          usage: usage(100, 20),
          warnings: [],
        },
        { content: [{ type: "text", text: "It is 18°C in Paris." }], finishReason: finish, usage: usage(140, 8), warnings: [] },
      ],
    });
    const result = await runAgent({ model: fromAISDK(mock), tools: [weather], task: "Paris?" });
    expect(result).toMatchObject({
      status: "completed",
      output: "It is 18°C in Paris.",
      usage: { inputTokens: 240, outputTokens: 28, toolCalls: 1 },
    });
    expect(result.usage.costUsd).toBeCloseTo((240 * 2.5 + 28 * 10) / 1e6, 12);
    const [first, second] = mock.doGenerateCalls;
    expect(first!.tools).toEqual([
      { type: "function", name: "weather", description: "Weather", inputSchema: expect.objectContaining({ required: ["city"] }) },
    ]);
    expect(second!.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "Paris?" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "weather", input: { city: "Paris" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "t1", toolName: "weather", output: { type: "text", value: "Paris: 18°C" } }],
      },
    ]);
  });

  it("streams text where the provider streams, for llmCompiler", async () => {
    const mock = new MockModel({
      modelId: "claude-sonnet-4-0",
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: "text-start", id: "1" },
            { type: "text-delta", id: "1", delta: '1. weather("Paris")\n' },
            { type: "text-delta", id: "1", delta: "2. join()" },
            { type: "text-end", id: "1" },
            { type: "finish", finishReason: finish, usage: usage(300, 15) },
          ],
        }),
      },
      doGenerate: { content: [{ type: "text", text: "FINISH: 18°C" }], finishReason: finish, usage: usage(200, 5), warnings: [] },
    });
    const result = await llmCompiler({ task: "Paris?", planner: fromAISDK(mock), tools: [weather] });
    expect(result).toMatchObject({ status: "completed", output: "18°C", usage: { modelCalls: 2, inputTokens: 500, outputTokens: 20 } });
    expect(mock.doStreamCalls).toHaveLength(1);
  });

  it("streams a ReAct call when someone watches: text, reasoning and tool-input pieces as model-delta events", async () => {
    const streams = [
      [
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "need the weather" },
        { type: "reasoning-end", id: "r" },
        { type: "tool-input-start", id: "t1", toolName: "weather" },
        { type: "tool-input-delta", id: "t1", delta: '{"city":' },
        { type: "tool-input-delta", id: "t1", delta: '"Paris"}' },
        { type: "tool-input-end", id: "t1" },
        { type: "tool-call", toolCallId: "t1", toolName: "weather", input: '{"city":"Paris"}' },
        { type: "finish", finishReason: finish, usage: usage(100, 20) },
      ],
      [
        { type: "text-start", id: "1" },
        { type: "text-delta", id: "1", delta: "It is " },
        { type: "text-delta", id: "1", delta: "18°C." },
        { type: "text-end", id: "1" },
        { type: "finish", finishReason: finish, usage: usage(140, 8) },
      ],
    ];
    let call = 0;
    const mock = new MockModel({
      modelId: "gpt-4o",
      doStream: async () => ({ stream: simulateReadableStream({ chunks: streams[call++] as never }) }),
    });
    const events: PlanloopEvent[] = [];
    const result = await runAgent({ model: fromAISDK(mock), tools: [weather], task: "Paris?", onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({
      status: "completed",
      output: "It is 18°C.",
      usage: { inputTokens: 240, outputTokens: 28, toolCalls: 1 },
    });
    const deltas = events.flatMap((event) => (event.type === "model-delta" ? [event] : []));
    expect(deltas.map(({ type: _type, seq: _seq, time: _time, step: _step, purpose: _purpose, ...delta }) => delta)).toEqual([
      { reasoning: "need the weather" },
      { toolCall: { index: 0, id: "t1", name: "weather", arguments: "" } },
      { toolCall: { index: 0, id: "t1", name: "weather", arguments: '{"city":' } },
      { toolCall: { index: 0, id: "t1", name: "weather", arguments: '"Paris"}' } },
      { text: "It is " },
      { text: "18°C." },
    ]);
    expect(result.messages[1]).toMatchObject({ role: "assistant", reasoning: "need the weather" });
    // Watched, every call went through the stream.
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(mock.doStreamCalls).toHaveLength(2);
  });

  it("with callOptions.maxOutputTokens, says a call's worst case: the prompt plus the cap, priced", () => {
    const mock = new MockModel({ modelId: "gpt-4o-mini" });
    const request = {
      messages: [{ role: "user" as const, content: "Paris?" }],
      step: 0,
      signal: new AbortController().signal,
      tools: [],
      purpose: "act" as const,
    };
    const worst = fromAISDK(mock, { callOptions: { maxOutputTokens: 1_000 } }).maxCallCost!(request)!;
    expect(worst.tokens).toBeGreaterThan(1_000);
    expect(worst.costUsd).toBeCloseTo(((worst.tokens - 1_000) * 0.15 + 1_000 * 0.6) / 1e6, 12);
    expect(fromAISDK(mock).maxCallCost!(request)).toBeUndefined();
  });

  it("refuses something that is not a language model", () => {
    expect(() => fromAISDK({} as never)).toThrow(TypeError);
  });
});
