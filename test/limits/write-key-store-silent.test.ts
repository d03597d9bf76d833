// A store that does not answer a try for a write key (a silent partition, a pool whose connections
// are all busy) must not keep a cancelled call waiting: the try is given up with the call, and a
// hold the store grants later is let go at once.
import { describe, expect, it } from "vitest";
import { memoryLimitStore, type LimitStore } from "../../src/core/limit-store.js";
import { resourceLocks } from "../../src/limits/resource-locks.js";

describe("a write key whose store does not answer the try", () => {
  it("gives the try up when the call is cancelled", async () => {
    const store: LimitStore = { ...memoryLimitStore(), hold: () => new Promise<boolean>(() => {}) };
    const stop = new AbortController();
    const holding = resourceLocks({ shared: store, holdMs: 300 }).hold("table:orders", stop.signal);
    setTimeout(() => stop.abort(new Error("the run was cancelled")), 20);
    await expect(holding).rejects.toThrow("the run was cancelled");
  });

  it("lets go of a hold the store grants after the call was cancelled", async () => {
    const inner = memoryLimitStore();
    let grant: () => void = () => {};
    const store: LimitStore = {
      ...inner,
      hold: (key, request) => new Promise<boolean>((resolve) => (grant = () => resolve(inner.hold(key, request)))),
    };
    const stop = new AbortController();
    const holding = resourceLocks({ shared: store, holdMs: 60_000 }).hold("table:orders", stop.signal);
    stop.abort(new Error("the run was cancelled"));
    await expect(holding).rejects.toThrow("the run was cancelled");
    grant();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await inner.hold("resource:table:orders", { holder: "another process", holdMs: 300 })).toBe(true);
  });
});
