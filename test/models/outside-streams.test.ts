// Chat Completions streams recorded from seven providers by public SDK test fixtures
// (../shared/data/outside-streams), replayed byte for byte by a local server, through the
// adapter: each must give the decision the SDKs' own snapshots give. Then the quirks public
// issue threads describe, one by one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, openAICompatible, runAgent, type ModelDecision, type ModelRequest } from "planloop";
import { startChatServer, type ChatServer, type Reply } from "../helpers/chat-server.js";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

const dir = sharedPath("data", "outside-streams");
const marker = "======== recorded stream below this line, to the end of the file ========\n";
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The recording as its header says to replay it. */
function replay(name: string): { reply: Reply; chunks: Array<Record<string, unknown>> } {
  const [header, body] = readFileSync(join(dir, `${name}.sse.txt`), "utf8").split(marker) as [string, string];
  const mode = /^replay: (\S+)/m.exec(header)![1]!;
  if (mode === "raw") {
    const chunks = body
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)));
    return { reply: { raw: body }, chunks };
  }
  const lines = body.split("\n").filter((line) => line.trim() !== "");
  return { reply: { sse: lines, cut: mode === "lines-no-done" }, chunks: lines.map((line) => JSON.parse(line)) };
}

async function decide(reply: Reply): Promise<ModelDecision> {
  server = await startChatServer([reply]);
  const model = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
  const request: ModelRequest = {
    messages: [{ role: "user", content: "hi" }],
    step: 0,
    signal: new AbortController().signal,
    tools: [],
    purpose: "act",
  };
  return model.generate(request);
}

/** The usage the recording's chunks report last, as the adapter should report it. */
function lastUsage(chunks: Array<Record<string, unknown>>) {
  const usage = chunks
    .map((chunk) => chunk.usage as { prompt_tokens: number; completion_tokens: number } | null | undefined)
    .filter(Boolean)
    .at(-1)!;
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
}

function textOf(chunks: Array<Record<string, unknown>>): string {
  return chunks
    .map((chunk) => (chunk.choices as Array<{ delta?: { content?: string | null } }> | undefined)?.[0]?.delta?.content ?? "")
    .join("");
}

const call = (name: string, id: string, args: unknown) => ({ name, id, arguments: args });

/** Each recording with what the SDK's snapshot (or the recording itself) says it holds. */
const recordings: Array<{
  name: string;
  calls?: ReturnType<typeof call>[];
  text?: string;
  usage?: { inputTokens: number; outputTokens: number };
}> = [
  {
    name: "alibaba-qwen-tool-call",
    calls: [call("weather", "call_eee11723464a4b9eb8cee71d", { location: "San Francisco" })],
    usage: { inputTokens: 295, outputTokens: 22 },
  },
  { name: "azure-model-router-text", text: "Capital of Denmark." },
  {
    name: "deepseek-reasoner-tool-call",
    calls: [call("weather", "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", { location: "San Francisco" })],
    usage: { inputTokens: 339, outputTokens: 83 },
  },
  { name: "groq-tool-call", calls: [call("weather", "tk85n1k4m", {})], usage: { inputTokens: 210, outputTokens: 15 } },
  {
    name: "ollama-parallel-tool-calls",
    calls: [call("run_command", "call_wteop8bt", { command: "ls" }), call("run_command", "call_rk2xye1l", { command: "ls -l" })],
  },
  { name: "openai-gpt41nano-text" },
  {
    name: "openai-gpt4o-parallel-tool-calls",
    calls: [
      call("GetWeatherArgs", "call_JMW1whyEaYG438VE1OIflxA2", { city: "Edinburgh", country: "GB", units: "c" }),
      call("get_stock_price", "call_DNYTawLBoN8fj3KN6qU9N1Ou", { ticker: "AAPL", exchange: "NASDAQ" }),
    ],
  },
  {
    name: "openai-gpt4o-text",
    text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
  },
  {
    name: "openai-gpt4o-tool-call",
    calls: [call("GetWeatherArgs", "call_c91SqDXlYFuETYv8mUHzz6pp", { city: "Edinburgh", country: "UK", units: "c" })],
  },
  {
    name: "vllm-style-incremental-tool-call",
    calls: [call("webSearchTool", "chatcmpl-tool-9f149c74c42f265b", { query: "current Berlin weather" })],
  },
];

// A clone without ../shared skips these (.ci/run runs them with it).
describe.skipIf(skipWithout(dir))("streams recorded from providers (needs ../shared/data/outside-streams)", () => {
  for (const recording of recordings) {
    it(`${recording.name}: the decision the SDK's snapshot gives`, async () => {
      const { reply, chunks } = replay(recording.name);
      const decision = await decide(reply);
      if (recording.calls) {
        expect(decision.type).toBe("tool_calls");
        const calls =
          decision.type === "tool_calls" ? decision.calls.map(({ name, id, arguments: args }) => ({ name, id, arguments: args })) : [];
        expect(calls).toEqual(recording.calls);
      } else {
        expect(decision).toMatchObject({ type: "final", content: recording.text ?? textOf(chunks) });
        expect(textOf(chunks).length).toBeGreaterThan(0);
      }
      const reported = chunks.some((chunk) => chunk.usage);
      expect(decision.usage).toMatchObject(reported ? (recording.usage ?? lastUsage(chunks)) : { estimated: true });
    });
  }

  it("keeps DeepSeek's reasoning apart from the answer and the arguments", async () => {
    const decision = await decide(replay("deepseek-reasoner-tool-call").reply);
    expect(decision.reasoning).toMatch(/^The user is asking for the weather in San Francisco\./);
    expect(decision.type === "tool_calls" && decision.content).toBeFalsy();
  });
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });

describe("stream quirks from public issue threads", () => {
  it("a tool name sent again in every chunk is not doubled", async () => {
    const decision = await decide({
      sse: [
        chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: "get_weather", arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: "get_weather", arguments: '"Oslo"}' } }] }, "tool_calls"),
      ],
    });
    expect(decision).toMatchObject({ type: "tool_calls", calls: [{ id: "c1", name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("a name split over chunks is put together", async () => {
    const decision = await decide({
      sse: [
        chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "get_", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: "weather", arguments: "{}" } }] }, "tool_calls"),
      ],
    });
    expect(decision).toMatchObject({ calls: [{ name: "get_weather" }] });
  });

  it("chunks without an index are merged by id, and a part without an id continues the last call", async () => {
    const decision = await decide({
      sse: [
        chunk({ tool_calls: [{ id: "a", function: { name: "lookup", arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '"x"}' } }] }),
        chunk({ tool_calls: [{ id: "b", function: { name: "lookup", arguments: '{"q":"y"}' } }] }),
        chunk({ tool_calls: [{ id: "a", function: { arguments: "" } }] }, "tool_calls"),
      ],
    });
    expect(decision).toMatchObject({
      type: "tool_calls",
      calls: [
        { id: "a", name: "lookup", arguments: { q: "x" } },
        { id: "b", name: "lookup", arguments: { q: "y" } },
      ],
    });
  });

  it("reasoning deltas (reasoning_content or reasoning) stay out of the answer, streamed or not", async () => {
    const streamed = await decide({
      sse: [chunk({ reasoning: "think " }), chunk({ reasoning_content: "more" }), chunk({ content: "42" }, "stop")],
    });
    expect(streamed).toMatchObject({ type: "final", content: "42", reasoning: "think more" });
    const whole = await decide({ json: { choices: [{ message: { content: "42", reasoning_content: "because" } }] } });
    expect(whole).toMatchObject({ type: "final", content: "42", reasoning: "because" });
  });

  it("a provider's fields on a tool call (a thought signature) are sent back on the next request", async () => {
    const signature = { google: { thought_signature: "sig-123" } };
    server = await startChatServer([
      {
        sse: [
          chunk(
            {
              tool_calls: [
                { index: 0, id: "c1", type: "function", extra_content: signature, function: { name: "clock", arguments: "{}" } },
              ],
            },
            "tool_calls",
          ),
        ],
      },
      { sse: [chunk({ content: "noon" }, "stop")] },
    ]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
    const clock = defineTool({ name: "clock", description: "time", input: z.object({}), execute: () => "12:00" });
    const result = await runAgent({ model, tools: [clock], task: "time?" });
    expect(result).toMatchObject({ status: "completed", output: "noon" });
    const sent = server.requests[1]!.body.messages as Array<{ role: string; tool_calls?: Array<Record<string, unknown>> }>;
    expect(sent.find((message) => message.role === "assistant")?.tool_calls?.[0]).toMatchObject({ id: "c1", extra_content: signature });
  });

  it("streams by default, and reads a server that answers a stream request with whole JSON", async () => {
    const decision = await decide({ json: { choices: [{ message: { content: "whole" } }] } });
    expect(decision).toMatchObject({ type: "final", content: "whole" });
    expect(server!.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});
