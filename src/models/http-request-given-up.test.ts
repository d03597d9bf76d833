import { describe, expect, it } from "vitest";
import type { ProviderLimit } from "../limits/provider-limit.js";
import { postWithRetries } from "./http-request.js";

/** A limit whose turn comes at once, noting what is settled; `onTurn` runs as the turn is given. */
function notingLimit(onTurn: () => void) {
  const settled: Array<[number, number]> = [];
  const limit: ProviderLimit = {
    name: "noting",
    countsTokens: true,
    turn: async () => {
      onTurn();
      return () => {};
    },
    settleTokens: async (held, used) => void settled.push([held, used]),
    coolDown: async () => {},
    closedFor: async () => 0,
  };
  return { limit, settled };
}

describe("a call given up between its turn and its request", () => {
  it("sends nothing and gives its tokens back to the limit's line", async () => {
    const stop = new AbortController();
    const { limit, settled } = notingLimit(() => stop.abort(new Error("run cancelled")));
    let sent = 0;
    const fetch = (async () => {
      sent += 1;
      return new Response("{}");
    }) as typeof globalThis.fetch;
    const call = postWithRetries({
      url: "http://127.0.0.1:9/v1/chat/completions",
      body: {},
      headers: {},
      fetch,
      timeoutMs: 5_000,
      maxRetries: 0,
      retryDelayMs: 1,
      signal: stop.signal,
      model: "m",
      limit,
      tokens: 400,
    });
    await expect(call).rejects.toThrow("run cancelled");
    expect(sent).toBe(0);
    expect(settled).toEqual([[400, 0]]);
  });
});
