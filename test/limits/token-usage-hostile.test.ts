// Outside review (flow control): a call that used more tokens than it held pushes the limit's line
// on by the difference (docs/limits.md). The figure is the provider's answer, taken as it is: one
// answer saying a call used 10^12 tokens booked the line centuries ahead, so every later call, in
// every process sharing the limit, waited for it. The push is now at most one window's tokens.
import { describe, expect, it } from "vitest";
import { providerLimit } from "../../src/limits/provider-limit.js";
import { openAICompatible } from "../../src/models/openai-compatible.js";

/** A provider (no network) whose first answer claims `promptTokens` used; the next ones are plain. */
function claimingProvider(promptTokens: number) {
  let answers = 0;
  return (async () => {
    answers += 1;
    const usage = answers === 1 ? { prompt_tokens: promptTokens, completion_tokens: 0 } : { prompt_tokens: 5, completion_tokens: 1 };
    return new Response(
      JSON.stringify({ id: "x", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage }),
      { status: 200, headers: { "content-type": "application/json" } },
    );
  }) as typeof fetch;
}

describe("a provider's usage figure at a token rate", () => {
  it("pushes the next turn on by at most one window, however many tokens the answer claims", async () => {
    for (const claimed of [1e12, 5_000]) {
      // 1,000 tokens a second.
      const limit = providerLimit({ name: `claims-${claimed}`, tokenRate: { tokens: 1000, perMs: 1000 } });
      const model = openAICompatible({
        baseURL: "http://127.0.0.1:9/v1",
        apiKey: "k",
        model: "m",
        limit,
        fetch: claimingProvider(claimed),
      });
      await model.generate({
        messages: [{ role: "user", content: "hi" }],
        step: 0,
        signal: new AbortController().signal,
        tools: [],
        purpose: "act",
      });
      await new Promise((resolve) => setTimeout(resolve, 20)); // the settle is not awaited by the call
      let until = Date.now();
      const stop = new AbortController();
      const next = limit.turn(stop.signal, (at) => (until = at), { tokens: 10 }).then((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 20));
      stop.abort();
      await next.catch(() => undefined);
      // One window (1 s) at most, plus the small call's own share.
      expect(until - Date.now()).toBeLessThan(1_500);
    }
  });
});
