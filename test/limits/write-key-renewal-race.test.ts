// Outside review (flow control): a write key's holder renews its hold every third of holdMs while
// its call runs. A renewal still on its way to the store when the call ends (a pooled Postgres
// connection answers it after the let-go on another) took the key again for a holder that was
// done: every other process then waited out holdMs (30 s by default) for a key nobody held. A
// renewal now only extends a hold its holder still has, so the late one finds the key let go.
import { describe, expect, it } from "vitest";
import { memoryLimitStore, type LimitStore } from "../../src/core/limit-store.js";
import { resourceLocks } from "../../src/limits/resource-locks.js";

/** A store whose renewals reach it `delayMs` late, as a slow connection of a pool would. */
function slowRenewals(delayMs: number): { store: LimitStore; renewals: { started: number } } {
  const inner = memoryLimitStore();
  const renewals = { started: 0 };
  const store: LimitStore = {
    ...inner,
    renew: async (key, request) => {
      renewals.started += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.renew(key, request);
    },
  };
  return { store, renewals };
}

describe("a write key let go while its renewal is on its way", () => {
  it("is free once let go: the late renewal does not take it again", async () => {
    const { store, renewals } = slowRenewals(80);
    const locks = resourceLocks({ shared: store, holdMs: 300 });
    const held = await locks.hold("table:orders", new AbortController().signal);
    // The renewal fires at 100 ms and reaches the store 80 ms later; the call ends meanwhile.
    while (renewals.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await store.hold("resource:table:orders", { holder: "another process", holdMs: 300 })).toBe(true);
  });
});

describe("a write key whose renewals cannot reach the store", () => {
  it("is given up as lost once no renewal got through for holdMs: the call's signal aborts naming the key", async () => {
    const inner = memoryLimitStore();
    const store: LimitStore = { ...inner, renew: async () => Promise.reject(new Error("connection refused")) };
    const held = await resourceLocks({ shared: store, holdMs: 150 }).hold("table:orders", new AbortController().signal);
    const started = performance.now();
    await new Promise((resolve) => held.lost.addEventListener("abort", resolve, { once: true }));
    // Not at the first failed renewal (50 ms): at holdMs, counted from inside hold(), a little before
    // `started` and in Date.now()'s whole milliseconds (Node 24 once measured 149.46 ms here).
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(String(held.lost.reason)).toContain('the hold on write key "table:orders" was lost');
    expect(String(held.lost.reason)).toContain("connection refused");
    held.release();
  });
});

describe("a write key whose holder was paused past holdMs", () => {
  it("is lost on the first tick after the pause, before any renewal is sent", async () => {
    const inner = memoryLimitStore();
    let renewals = 0;
    const store: LimitStore = {
      ...inner,
      renew: async (key, request) => {
        renewals += 1;
        return inner.renew(key, request);
      },
    };
    const held = await resourceLocks({ shared: store, holdMs: 150 }).hold("table:orders", new AbortController().signal);
    // The event loop blocked (a long synchronous task, a GC pause, SIGSTOP) past holdMs: the renewal due at 50 ms is late.
    for (const until = performance.now() + 250; performance.now() < until;);
    await new Promise((resolve) => held.lost.addEventListener("abort", resolve, { once: true }));
    expect(renewals, "a renewal sent after the pause could have extended a hold that may be another's").toBe(0);
    expect(String(held.lost.reason)).toContain('the hold on write key "table:orders" was lost');
    held.release();
  });
});

describe("a write key whose let-go never answers", () => {
  it("frees the resource for this process's next caller once the hold has run out in the store", async () => {
    const inner = memoryLimitStore();
    const store: LimitStore = { ...inner, letGo: () => new Promise<void>(() => {}) };
    const locks = resourceLocks({ shared: store, holdMs: 150 });
    (await locks.hold("table:orders", new AbortController().signal)).release();
    const next = await locks.hold("table:orders", AbortSignal.timeout(5_000));
    next.release();
  });
});

describe("resourceLocks' holdMs", () => {
  it("is refused past a year, with the rule in the message", () => {
    expect(() => resourceLocks({ shared: memoryLimitStore(), holdMs: 366 * 86_400_000 })).toThrow(
      /holdMs must be at most 31536000000 \(a year\)/,
    );
    expect(() => resourceLocks({ shared: memoryLimitStore(), holdMs: 365 * 86_400_000 })).not.toThrow();
  });
});
