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

describe("which answers close the shared limit", () => {
  /** A provider that answers `status` with `Retry-After: <seconds>` first, then 200. */
  function answeringOnce(status: number, seconds: string) {
    const at: number[] = [];
    const fetch = (async () => {
      at.push(performance.now());
      if (at.length > 1) return new Response("{}", { status: 200 });
      return new Response("{}", { status, headers: { "retry-after": seconds } });
    }) as typeof globalThis.fetch;
    return { fetch, at };
  }

  it.each([429, 503, 529])("a %i with a time closes it: the provider's rate, or the provider overloaded", async (status) => {
    const limit = providerLimit({ name: `closes-${status}` });
    await expect(postWithRetries(request(answeringOnce(status, "30").fetch, 0, limit))).rejects.toBeInstanceOf(ModelHttpError);
    expect(await limit.closedFor()).toBeGreaterThan(25_000);
  });

  it.each([408, 409, 425, 500, 502, 504])("a %i with a time closes nothing: it is about this request", async (status) => {
    const limit = providerLimit({ name: `open-${status}` });
    await expect(postWithRetries(request(answeringOnce(status, "30").fetch, 0, limit))).rejects.toBeInstanceOf(ModelHttpError);
    expect(await limit.closedFor()).toBe(0);
  });

  it("a 500 with a time: the call itself waits that time before its retry", async () => {
    const limit = providerLimit({ name: "own-wait" });
    const { fetch, at } = answeringOnce(500, "1");
    const response = await postWithRetries(request(fetch, 1, limit));
    expect(response.status).toBe(200);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(await limit.closedFor()).toBe(0);
  });
});
