import { describe, expect, it } from "vitest";
import { providerLimit } from "../limits/provider-limit.js";
import { ModelHttpError, postWithRetries } from "./http-request.js";

/** A provider that answers every request 429 with `Retry-After: <seconds>`, counting them (no network). */
function refusingProvider(seconds: string) {
  const seen = { requests: 0 };
  const fetch = (async () => {
    seen.requests += 1;
    return new Response(JSON.stringify({ error: { message: "slow down" } }), {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": seconds },
    });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const request = (fetch: typeof globalThis.fetch, maxRetries: number, limit: ReturnType<typeof providerLimit>) => ({
  url: "http://127.0.0.1:9/v1/chat/completions",
  body: {},
  headers: {},
  fetch,
  timeoutMs: 5_000,
  maxRetries,
  retryDelayMs: 1,
  signal: undefined,
  model: "m",
  limit,
});

describe("a 429 with a time, on the call's last attempt", () => {
  it("closes the shared limit for everyone even when the call that got it has no retry left", async () => {
    const limit = providerLimit({ name: "last-attempt", concurrent: 4 });
    const { fetch, seen } = refusingProvider("30");
    await expect(postWithRetries(request(fetch, 0, limit))).rejects.toBeInstanceOf(ModelHttpError);
    expect(seen.requests).toBe(1);
    // The provider said 30 s: the calls that share the limit must not walk into the same wall.
    expect(await limit.closedFor()).toBeGreaterThan(25_000);
  });

  it("keeps the cooldown of a call that used up its retries on 429s", async () => {
    const limit = providerLimit({ name: "retries-spent", concurrent: 4 });
    // 0 s on the retries (no real wait), then a last 429 that names 30 s.
    let answers = 0;
    const fetch = (async () => {
      answers += 1;
      return new Response("{}", { status: 429, headers: { "retry-after": answers < 3 ? "0" : "30" } });
    }) as typeof globalThis.fetch;
    await expect(postWithRetries(request(fetch, 2, limit))).rejects.toBeInstanceOf(ModelHttpError);
    expect(answers).toBe(3);
    expect(await limit.closedFor()).toBeGreaterThan(25_000);
  });
});
