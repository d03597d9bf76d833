import { describe, expect, it } from "vitest";
import { openAICompatible, providerLimit, type ModelRequest } from "../../src/index.js";

/**
 * docs/limits.md: "**At once** (`concurrent`): at most that many requests in flight in this
 * process."
 *
 * A streamed answer (the default, `stream: true`) is in flight until its last chunk: the provider
 * is still generating it and counts it against its own limit of requests at once (vLLM's and
 * Ollama's slots, an account's concurrency cap).
 */

const request = (): ModelRequest => ({
  messages: [{ role: "user", content: "hi" }],
  step: 0,
  signal: new AbortController().signal,
  tools: [],
  purpose: "act",
});

describe("concurrent: streamed answers", () => {
  it("concurrent: 1 never has two answers streaming at once", async () => {
    let open = 0;
    let most = 0;
    const encoder = new TextEncoder();
    const fetch = (async () => {
      open += 1;
      most = Math.max(most, open);
      const chunks = [
        { choices: [{ index: 0, delta: { role: "assistant", content: "hel" } }] },
        { choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] },
        { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } },
      ];
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const chunk of chunks) {
            await new Promise((resolve) => setTimeout(resolve, 150));
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
          }
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          open -= 1; // the provider is done generating
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    }) as typeof globalThis.fetch;
    const limit = providerLimit({ name: `streams-${Math.random()}`, concurrent: 1 });
    const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch, limit });
    const answers = await Promise.all([model.generate(request()), model.generate(request())]);
    expect(answers.map((answer) => answer.type)).toEqual(["final", "final"]);
    expect(most, "two answers were streaming at once under concurrent: 1").toBe(1);
  });
});
