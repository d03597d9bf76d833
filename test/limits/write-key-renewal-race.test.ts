// Outside review (flow control): a write key's holder renews its hold every third of holdMs while
// its call runs. A renewal still on its way to the store when the call ends (a pooled Postgres
// connection answers it after the let-go on another) took the key again for a holder that was
// done: every other process then waited out holdMs (30 s by default) for a key nobody held.
import { describe, expect, it } from "vitest";
import { memoryLimitStore, type LimitStore } from "../../src/core/limit-store.js";
import { resourceLocks } from "../../src/limits/resource-locks.js";

/** A store whose renewals (a holder's hold after its first) reach it `delayMs` late, as a slow connection of a pool would. */
function slowRenewals(delayMs: number): { store: LimitStore; renewals: { started: number } } {
  const inner = memoryLimitStore();
  const holders = new Set<string>();
  const renewals = { started: 0 };
  const store: LimitStore = {
    ...inner,
    hold: async (key, holder, until, now) => {
      if (!holders.has(holder)) {
        holders.add(holder);
        return inner.hold(key, holder, until, now);
      }
      renewals.started += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.hold(key, holder, until, now);
    },
  };
  return { store, renewals };
}

describe("a write key let go while its renewal is on its way", () => {
  it("is free once let go: the late renewal does not take it again", async () => {
    const { store, renewals } = slowRenewals(80);
    const locks = resourceLocks({ shared: store, holdMs: 300 });
    const release = await locks.hold("table:orders", new AbortController().signal);
    // The renewal fires at 100 ms and reaches the store 80 ms later; the call ends meanwhile.
    while (renewals.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = Date.now();
    expect(await store.hold("resource:table:orders", "another process", now + 300, now)).toBe(true);
  });
});
