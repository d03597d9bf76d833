import { describe, expect, it } from "vitest";
import { openAICompatible, providerLimit, type ModelRequest } from "../../src/index.js";

/**
 * docs/limits.md, "One cooldown":
 *   "when the provider answers 429 (or 503) with a time (`Retry-After`, `retry-after-ms`), the
 *    limit is closed for everyone that shares it until then [...] The time is taken as a minute at
 *    most (a date in the past or a negative number as none, a value that is neither seconds nor a
 *    date as no time given), so one hostile answer closes the limit a minute, not for days; the
 *    call whose last retry got the 429 closes it too"
 */

const request = (): ModelRequest => ({
  messages: [{ role: "user", content: "hi" }],
  step: 0,
  signal: new AbortController().signal,
  tools: [],
  purpose: "act",
});

/** One call (no retries) against a provider that answers `status` with `headers`; the limit it leaves behind. */
async function afterOneRefusal(status: number, headers: Record<string, string>, maxRetries = 0) {
  const limit = providerLimit({ name: `p-${Math.random()}` });
  const attempts: number[] = [];
  const fetch = (async () => {
    attempts.push(performance.now());
    return new Response(JSON.stringify({ error: { message: "slow down" } }), { status, headers });
  }) as typeof globalThis.fetch;
  const model = openAICompatible({
    baseURL: "http://provider.invalid/v1",
    model: "m",
    fetch,
    limit,
    maxRetries,
    retryDelayMs: 2_000,
    stream: false,
  });
  await expect(model.generate(request())).rejects.toThrow();
  return { closedFor: await limit.closedFor(), attempts };
}

describe("Retry-After values that are neither seconds nor a date are no time given", () => {
  // V8's Date.parse reads almost anything with a number in it as a date ("banana 2030" is
  // 1 January 2030); Number() reads hex and exponents. None of these is an HTTP-date or
  // delay-seconds (RFC 9110 §10.2.3: 1*DIGIT).
  it.each(["banana 2030", "Tomorrow 2030", "0x3C"])("Retry-After: %j closes nothing", async (value) => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after": value });
    expect(closedFor).toBe(0);
  });

  it('(guard, held) Retry-After: "12/31/2099 please" closes nothing', async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after": "12/31/2099 please" });
    expect(closedFor).toBe(0);
  });

  it('an empty Retry-After ("") is no time given: the retry backs off instead of going at once', async () => {
    const { attempts } = await afterOneRefusal(429, { "retry-after": "" }, 1);
    expect(attempts).toHaveLength(2);
    // retryDelayMs 2 s with jitter: a backoff of at least 1 s.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
  });
});

describe("an empty retry-after-ms is no time given, so the Retry-After beside it counts", () => {
  it('retry-after-ms: "" with Retry-After: 20 closes the limit about 20 s', async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after-ms": "", "retry-after": "20" });
    expect(closedFor).toBeGreaterThan(18_000);
  });
  it('(guard, held) retry-after-ms: "soon" with Retry-After: 20 closes the limit about 20 s', async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after-ms": "soon", "retry-after": "20" });
    expect(closedFor).toBeGreaterThan(18_000);
  });
});

describe("Retry-After values the docs name (guards: these held)", () => {
  it("an HTTP-date 30 s ahead closes the limit about 30 s", async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after": new Date(Date.now() + 30_000).toUTCString() });
    expect(closedFor).toBeGreaterThan(27_000);
    expect(closedFor).toBeLessThanOrEqual(31_000);
  });
  it("an HTTP-date in the past closes nothing", async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after": new Date(Date.now() - 3_600_000).toUTCString() });
    expect(closedFor).toBe(0);
  });
  it("an HTTP-date years ahead closes a minute at most", async () => {
    const { closedFor } = await afterOneRefusal(429, { "retry-after": "Fri, 31 Dec 9999 23:59:59 GMT" });
    expect(closedFor).toBeGreaterThan(55_000);
    expect(closedFor).toBeLessThanOrEqual(60_000);
  });
  it.each([
    ["retry-after", "99999999999"],
    ["retry-after-ms", "1e15"],
    ["retry-after", "86400"],
  ])("%s: %s closes a minute at most", async (name, value) => {
    const { closedFor } = await afterOneRefusal(429, { [name]: value });
    expect(closedFor).toBeLessThanOrEqual(60_000);
    expect(closedFor).toBeGreaterThan(55_000);
  });
  it.each([
    ["retry-after", "-30"],
    ["retry-after-ms", "-30000"],
  ])("%s: %s (negative) closes nothing", async (name, value) => {
    const { closedFor } = await afterOneRefusal(429, { [name]: value });
    expect(closedFor).toBe(0);
  });
  it("a 503 with Retry-After closes the limit; one without closes nothing", async () => {
    expect((await afterOneRefusal(503, { "retry-after": "20" })).closedFor).toBeGreaterThan(18_000);
    expect((await afterOneRefusal(503, {})).closedFor).toBe(0);
  });
});
