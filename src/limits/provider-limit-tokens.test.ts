import { describe, expect, it } from "vitest";
import { memoryLimitStore, type LimitStore } from "../core/limit-store.js";
import { providerLimit } from "./provider-limit.js";

/** A memory store that records each booking (a request's and its tokens'): which line, how much time. */
function recordingStore() {
  const inner = memoryLimitStore();
  const booked: Array<{ key: string; intervalMs: number }> = [];
  const store: LimitStore = {
    ...inner,
    book: (key, request) => {
      booked.push({ key, intervalMs: request.intervalMs });
      return inner.book(key, request);
    },
    bookNext: (key, request) => {
      booked.push({ key, intervalMs: request.intervalMs });
      return inner.bookNext(key, request);
    },
  };
  return { store, booked };
}

describe("a provider limit's token rate", () => {
  it("holds a call's worst case on the tokens' line and gives back what it did not use", async () => {
    const { store, booked } = recordingStore();
    // 1,000 tokens a second: a token is 1 ms of the line.
    const limit = providerLimit({ name: "p", tokenRate: { tokens: 1000, perMs: 1000 }, shared: store });
    expect(limit.countsTokens).toBe(true);
    const release = await limit.turn(undefined, undefined, { tokens: 300 });
    release();
    await limit.settleTokens(300, 120);
    const tokensLine = booked.filter((each) => each.key === "provider-tokens:p").map((each) => each.intervalMs);
    expect(tokensLine).toEqual([300, -180]);
    // A call that used more than it held pushes the line on by the rest.
    await limit.settleTokens(100, 250);
    expect(booked.at(-1)).toEqual({ key: "provider-tokens:p", intervalMs: 150 });
  });

  it("makes a later call wait for the tokens held before it, less what was given back", async () => {
    const limit = providerLimit({ name: "p", tokenRate: { tokens: 1000, perMs: 1000 }, shared: memoryLimitStore() });
    const before = Date.now();
    (await limit.turn(undefined, undefined, { tokens: 100_000 }))();
    let until = 0;
    const stop = new AbortController();
    const second = limit.turn(stop.signal, (at) => (until = at), { tokens: 10 });
    // Booked behind the first call's 100,000 tokens: 100 s of the line.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(until).toBeGreaterThanOrEqual(before + 100_000);
    // The first call used 10: a call booked now comes right after those.
    await limit.settleTokens(100_000, 10);
    let third = 0;
    (await limit.turn(undefined, (at) => (third = at), { tokens: 10 }))();
    expect(third === 0 || third - Date.now() < 1000).toBe(true);
    stop.abort();
    await expect(second).rejects.toThrow();
  });

  it("gives a call's tokens back to the line when it gives up while it waits for its turn", async () => {
    const limit = providerLimit({ name: "p", tokenRate: { tokens: 1000, perMs: 1000 }, shared: memoryLimitStore() });
    const before = Date.now();
    (await limit.turn(undefined, undefined, { tokens: 100_000 }))();
    // Booked behind the first call's 100 s, holding 50 s of its own; its run is cancelled.
    const stop = new AbortController();
    let secondAt = 0;
    const second = limit.turn(stop.signal, (at) => (secondAt = at), { tokens: 50_000 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(secondAt).toBeGreaterThanOrEqual(before + 100_000);
    stop.abort();
    await expect(second).rejects.toThrow();
    // The next call comes after the first call's tokens, not after the 50,000 never sent too.
    const later = new AbortController();
    let thirdAt = 0;
    const third = limit.turn(later.signal, (at) => (thirdAt = at), { tokens: 10 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(thirdAt).toBeGreaterThanOrEqual(before + 100_000);
    expect(thirdAt).toBeLessThan(Date.now() + 101_000);
    later.abort();
    await expect(third).rejects.toThrow();
  });

  it("counts no tokens without a token rate, and refuses a token rate given twice or not whole", async () => {
    const { store, booked } = recordingStore();
    const limit = providerLimit({ name: "p", requestsPerMinute: 600, shared: store });
    expect(limit.countsTokens).toBe(false);
    (await limit.turn(undefined, undefined, { tokens: 500 }))();
    await limit.settleTokens(500, 0);
    expect(booked.map((each) => each.key)).toEqual(["provider:p"]);
    expect(() => providerLimit({ name: "p", tokensPerMinute: 10, tokenRate: { tokens: 10, perMs: 1000 } })).toThrow(/not both/);
    expect(() => providerLimit({ name: "p", tokensPerMinute: 0.5 })).toThrow(/whole number of tokens/);
  });
});
