import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, llmCompiler, ModelCallError, openAICompatible, runAgent, type ToolMessage } from "planloop";
import { completion, startChatServer, toolCall, type ChatServer } from "../helpers/chat-server.js";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = defineTool({
  name: "weather",
  description: "Weather in a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === "Paris" ? 18 : 21 }),
});

describe("openAICompatible", () => {
  it("runs a ReAct loop: parallel tool calls out, tool results back by id, usage and cost", async () => {
    server = await startChatServer([
      completion(
        { content: null, tool_calls: [toolCall("c1", "weather", '{"city":"Paris"}'), toolCall("c2", "weather", '{"city":"Rome"}')] },
        { prompt_tokens: 120, completion_tokens: 30 },
      ),
      completion({ content: "Paris 18°C, Rome 21°C" }, { prompt_tokens: 200, completion_tokens: 12 }),
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, apiKey: "sk-test", model: "gpt-4o-mini" });
    const result = await runAgent({ model, tools: [weather], task: "Weather in Paris and Rome?" });
    expect(result).toMatchObject({ status: "completed", output: "Paris 18°C, Rome 21°C" });
    expect(result.usage).toMatchObject({ modelCalls: 2, inputTokens: 320, outputTokens: 42, toolCalls: 2 });
    expect(result.usage.costUsd).toBeCloseTo((320 * 0.15 + 42 * 0.6) / 1e6, 12);

    const [first, second] = server.requests;
    expect(first!.headers.authorization).toBe("Bearer sk-test");
    expect(first!.body).toMatchObject({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Weather in Paris and Rome?" }],
      tools: [
        {
          type: "function",
          function: { name: "weather", description: "Weather in a city", parameters: { type: "object", required: ["city"] } },
        },
      ],
    });
    expect((first!.body.tools as Array<{ function: { parameters: object } }>)[0]!.function.parameters).not.toHaveProperty("$schema");
    expect(second!.body.messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [toolCall("c1", "weather", '{"city":"Paris"}'), toolCall("c2", "weather", '{"city":"Rome"}')],
      },
      { role: "tool", tool_call_id: "c1", content: '{"city":"Paris","celsius":18}' },
      { role: "tool", tool_call_id: "c2", content: '{"city":"Rome","celsius":21}' },
    ]);
  });

  it("assembles tool calls split across streamed chunks, with usage from the last chunk", async () => {
    const chunk = (delta: unknown) => ({ choices: [{ index: 0, delta }] });
    server = await startChatServer([
      {
        sse: [
          chunk({
            role: "assistant",
            tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "weather", arguments: "" } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
          chunk({ tool_calls: [{ index: 1, id: "c2", type: "function", function: { name: "weather", arguments: '{"city":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '"Rome"}' } }] }),
          { choices: [], usage: { prompt_tokens: 90, completion_tokens: 20 } },
        ],
      },
      {
        sse: [
          chunk({ content: "Both " }),
          chunk({ content: "mild." }),
          { choices: [], usage: { prompt_tokens: 150, completion_tokens: 3 } },
        ],
      },
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "local-model", stream: true });
    const result = await runAgent({ model, tools: [weather], task: "Weather?" });
    expect(result).toMatchObject({ status: "completed", output: "Both mild.", usage: { inputTokens: 240, outputTokens: 23, costUsd: 0 } });
    const tools = result.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(tools.map((message) => [message.toolCallId, message.content])).toEqual([
      ["c1", { city: "Paris", celsius: 18 }],
      ["c2", { city: "Rome", celsius: 21 }],
    ]);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("says which streamed event was not JSON", async () => {
    server = await startChatServer([{ sse: [{ choices: [{ index: 0, delta: { content: "Hel" } }] }, "lo, not json{"] }]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "local-model", stream: true });
    const error = await runAgent({ model, tools: [], task: "hi" }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("the server's stream sent an event that is not JSON: lo, not json{");
  });

  it("streams plan text to llmCompiler", async () => {
    const chunk = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
    server = await startChatServer([
      { sse: [chunk('1. weather("Paris")\n'), chunk('2. weather("Rome")\n'), chunk("3. join()")], delayMs: 20 },
      completion({ content: "FINISH: Paris 18, Rome 21" }),
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" });
    const result = await llmCompiler({ task: "Weather in Paris and Rome?", planner: model, tools: [weather] });
    expect(result).toMatchObject({ status: "completed", output: "Paris 18, Rome 21", steps: 2 });
    expect(result.usage.modelCalls).toBe(2);
    expect(result.usage.inputTokens).toBeGreaterThan(50);
  });

  it("estimates usage with a tokenizer when the server reports none", async () => {
    server = await startChatServer([completion({ content: "Hello there, how can I help?" }, null)]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" });
    const decision = await model.generate({
      messages: [{ role: "user", content: "hi" }],
      step: 0,
      signal: new AbortController().signal,
      tools: [],
      purpose: "act",
    });
    expect(decision.usage).toMatchObject({ estimated: true, outputTokens: 8 });
    expect(decision.usage!.inputTokens).toBeGreaterThan(3);
    expect(decision.usage!.costUsd).toBeGreaterThan(0);
  });

  it("retries a 429 after its Retry-After, and a 500 after a backoff", async () => {
    server = await startChatServer([
      { status: 429, headers: { "retry-after": "1" }, json: { error: { message: "slow down" } } },
      { status: 500, json: { error: { message: "oops" } } },
      completion({ content: "done" }),
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", retryDelayMs: 10 });
    const result = await runAgent({ model, tools: [], task: "hi" });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    const [a, b, c] = server.requests.map((request) => request.at);
    expect(b! - a!).toBeGreaterThanOrEqual(950);
    expect(c! - b!).toBeLessThan(900);
  });

  it("does not retry a 401 and says to check the key", async () => {
    server = await startChatServer([
      { status: 401, json: { error: { message: "Incorrect API key provided" } } },
      completion({ content: "never" }),
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, apiKey: "bad", model: "gpt-4o" });
    const error = await runAgent({ model, tools: [], task: "hi" }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("rejected the API key (401): Incorrect API key provided. Check apiKey");
    expect(server.requests).toHaveLength(1);
  });

  it("says the server answered without choices when its JSON is null or its choice is not an object", async () => {
    server = await startChatServer([
      { status: 200, json: null },
      { status: 200, json: { choices: [null] } },
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await runAgent({ model, tools: [], task: "hi" }).catch((caught: unknown) => caught);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("answered without choices");
    }
  });

  it("times out a hanging request, and the run's signal aborts one at once", async () => {
    server = await startChatServer([{ hang: true }, { hang: true }]);
    const slow = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", timeoutMs: 200, maxRetries: 0 });
    await expect(runAgent({ model: slow, tools: [], task: "hi" })).rejects.toThrow(/no answer from .* within 200 ms/);

    const patient = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", timeoutMs: 60_000 });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("user stopped")), 100);
    const result = await runAgent({ model: patient, tools: [], task: "hi", signal: controller.signal });
    expect(result).toMatchObject({ status: "cancelled", reason: "user stopped" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("turns malformed tool-call arguments into a message asking the model to resend them", async () => {
    server = await startChatServer([
      completion({ content: null, tool_calls: [toolCall("c1", "weather", '{"city": "Paris"')] }),
      completion({ content: null, tool_calls: [toolCall("c2", "weather", '{"city": "Paris"}')] }),
      completion({ content: "18°C" }),
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" });
    const result = await runAgent({ model, tools: [weather], task: "Paris?" });
    expect(result).toMatchObject({ status: "completed", output: "18°C" });
    const retryPrompt = (server.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(retryPrompt).toMatchObject({ role: "tool", content: expect.stringContaining("not valid JSON") });
    expect((server.requests[1]!.body.messages as Array<{ tool_calls?: unknown }>)[1]!.tool_calls).toEqual([
      toolCall("c1", "weather", '{"city": "Paris"'),
    ]);
  });

  it("rejects bad options with a TypeError", () => {
    expect(() => openAICompatible({ baseURL: "api.openai.com", model: "x" })).toThrow(TypeError);
    expect(() => openAICompatible({ baseURL: "http://127.0.0.1:1/v1", model: "" })).toThrow(/model must name/);
  });
});

describe("cost budgets with a real adapter", () => {
  it("stops before a call the cost budget cannot pay for", async () => {
    const reply = () =>
      completion(
        { content: null, tool_calls: [toolCall(`c${Math.random()}`, "weather", '{"city":"Paris"}')] },
        { prompt_tokens: 100_000, completion_tokens: 1_000 },
      );
    server = await startChatServer([reply(), reply(), reply(), reply()]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" });
    const result = await runAgent({ model, tools: [weather], task: "loop", budget: { maxCostUsd: 0.6 }, noProgress: false });
    // Each call costs 100k * $2.50/M + 1k * $10/M = $0.26: two fit in $0.60, a third would not.
    expect(result).toMatchObject({ status: "budget_exceeded", limit: "maxCostUsd", usage: { modelCalls: 2 } });
    expect(server.requests).toHaveLength(2);
  });
});

describe("a call's worst case (maxOutputTokens)", () => {
  it("sends max_tokens, and holds the prompt plus the cap, priced, against the budget", async () => {
    server = await startChatServer([completion({ content: "done" }, { prompt_tokens: 50, completion_tokens: 5 })]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", maxOutputTokens: 2_000 });
    const request = {
      messages: [{ role: "user" as const, content: "hello" }],
      step: 0,
      signal: new AbortController().signal,
      tools: [],
      purpose: "act" as const,
    };
    const worst = model.maxCallCost!(request)!;
    expect(worst.tokens).toBeGreaterThan(2_000);
    expect(worst.costUsd).toBeCloseTo(((worst.tokens - 2_000) * 2.5 + 2_000 * 10) / 1e6, 12);
    // $0.02 of room holds one call's worst case ($0.02 and a little), not two: the call is not made.
    const refused = await runAgent({ model, tools: [weather], task: "hi", budget: { maxCostUsd: 0.02 } });
    expect(refused).toMatchObject({ status: "budget_exceeded", limit: "maxCostUsd" });
    expect(server.requests).toHaveLength(0);
    const done = await runAgent({ model, tools: [weather], task: "hi", budget: { maxCostUsd: 1 } });
    expect(done.status).toBe("completed");
    expect(server.requests[0]!.body).toMatchObject({ max_tokens: 2_000 });
    expect(
      openAICompatible({ baseURL: server.baseURL, model: "gpt-4o", body: { max_completion_tokens: 300 } }).maxCallCost!(request)!.tokens,
    ).toBeLessThan(400);
    expect(openAICompatible({ baseURL: server.baseURL, model: "gpt-4o" }).maxCallCost!(request)).toBeUndefined();
    expect(() => openAICompatible({ baseURL: server!.baseURL, model: "gpt-4o", maxOutputTokens: 0 })).toThrow(/maxOutputTokens/);
  });
});
