import { describe, expect, it } from "vitest";
import { memoryLimitStore, resourceLocks, type LimitStore } from "../../src/index.js";
import { runWriteCall } from "./helpers.js";

/**
 * docs/limits.md: "A hold lasts `holdMs` (30 s) and its holder renews it every third of that while
 * the call runs". `resourceLocks` takes any finite `holdMs` of 100 or more.
 *
 * Node runs a timer whose delay is over 2^31 - 1 ms (24.8 days) after 1 ms instead: a hold of
 * 75 days or more (a third of it over that) is renewed every millisecond, a store round trip
 * each, for as long as the call runs.
 */
describe("a very long hold", () => {
  it("holdMs of 80 days is renewed every third of that, not every millisecond", async () => {
    const inner = memoryLimitStore();
    let renewals = 0;
    const store: LimitStore = {
      ...inner,
      renew: async (key, request) => {
        renewals += 1;
        return inner.renew(key, request);
      },
    };
    const locks = resourceLocks({ shared: store, holdMs: 80 * 86_400_000 });
    await runWriteCall({ locks, resources: () => ["table:archive"], keys: [], runMs: 300 });
    expect(renewals, "renewals in a 300 ms call").toBe(0);
  });
});
