// An answer is used only if it arrived whole: a stream cut short, cut at the token limit,
// or carrying an error, are model errors; a JSON body sent to a streaming request is read whole.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, openAICompatible, runAgent, type AgentResult } from "planloop";
import { startChatServer, type ChatServer, type Reply } from "../helpers/chat-server.js";

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const toolStart = { choices: [{ delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "refund", arguments: "" } }] } }] };
const say = (content: string, finish?: string) => ({ choices: [{ delta: { content }, finish_reason: finish ?? null }] });

async function run(replies: Reply[], options: { maxRetries?: number; maxResponseBytes?: number } = {}) {
  server = await startChatServer(replies);
  const ran: unknown[] = [];
  const refund = defineTool({
    name: "refund",
    description: "refund",
    input: z.object({}).passthrough(),
    execute: (args) => (ran.push(args), "ok"),
  });
  const model = openAICompatible({
    baseURL: server.baseURL,
    model: "m",
    stream: true,
    maxRetries: options.maxRetries ?? 0,
    retryDelayMs: 1,
    ...options,
  });
  const outcome: { result?: AgentResult; error?: Error } = await runAgent({ model, tools: [refund], task: "t" }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error as Error }),
  );
  return { ...outcome, ran };
}

describe("complete answers only", () => {
  it("a stream that ends right after the tool name runs no tool", async () => {
    const { error, ran } = await run([{ sse: [toolStart], cut: true }]);
    expect(error?.message).toMatch(/ended before the answer was complete/);
    expect(ran).toEqual([]);
  });

  it("a stream cut short is asked again, and the whole second answer is used", async () => {
    const { result } = await run([{ sse: [say("Hel")], cut: true }, { sse: [say("Hello", "stop")] }], { maxRetries: 1 });
    expect(result).toMatchObject({ status: "completed", output: "Hello" });
    expect(server!.requests).toHaveLength(2);
  });

  it("an answer cut at the token limit, or with an error event, is an error", async () => {
    const cut = await run([{ sse: [say("The report is", "length")] }]);
    expect(cut.error?.message).toMatch(/cut off at the token limit/);
    await server!.close();
    const failed = await run([{ sse: [say("partial"), { error: { message: "overloaded" } }] }]);
    expect(failed.error?.message).toMatch(/stream reported an error: overloaded/);
  });

  it("a JSON body sent to a streaming request is read as the whole answer (a server that does not stream), never as an empty one", async () => {
    const { result } = await run([
      { json: { choices: [{ message: { content: "hi" } }], usage: { prompt_tokens: 7, completion_tokens: 1 } } },
    ]);
    expect(result).toMatchObject({ status: "completed", output: "hi", usage: { inputTokens: 7, outputTokens: 1 } });
    const { error } = await run([{ json: { nothing: true } }]);
    expect(error?.message).toMatch(/answered without choices/);
  });

  it("an answer larger than maxResponseBytes is an error", async () => {
    const streamed = await run([{ sse: [say("x".repeat(5_000), "stop")] }], { maxResponseBytes: 1_000 });
    expect(streamed.error?.message).toMatch(/larger than 1000 bytes/);
    await server!.close();
    server = await startChatServer([{ json: { choices: [{ message: { content: "y".repeat(5_000) } }] } }]);
    const model = openAICompatible({ baseURL: server.baseURL, model: "m", maxResponseBytes: 1_000 });
    await expect(runAgent({ model, tools: [], task: "t" })).rejects.toThrow(/larger than 1000 bytes/);
  });
});
