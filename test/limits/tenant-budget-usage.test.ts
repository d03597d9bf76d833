// Outside review (flow control): a tenant's day charges what each call "really cost" — the
// provider's usage figure, taken as it is. An answer that says a call used a negative number of
// tokens (or dollars) credited the day's ledger, so the tenant could then spend without bound.
import { describe, expect, it } from "vitest";
import { memoryLimitStore } from "../../src/core/limit-store.js";
import { tenantBudget } from "../../src/limits/tenant-budget.js";

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("a tenant's day and a provider's usage figure", () => {
  it("never credits the day for a call whose usage is negative", async () => {
    for (const figure of [
      { inputTokens: -1e9, outputTokens: 0, costUsd: -5 },
      { inputTokens: 0, outputTokens: -3, costUsd: -0.5 },
    ]) {
      const day = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1000, maxCostUsd: 1 }, shared: memoryLimitStore() });
      const first = { tokens: 0, costUsd: 0 };
      expect(await day.hold(first)).toBeUndefined();
      day.settle(first, figure);
      await settled();
      const second = { tokens: 600, costUsd: 0.1 };
      expect(await day.hold(second)).toBeUndefined();
      day.settle(second, { inputTokens: 600, outputTokens: 0, costUsd: 0.1 });
      await settled();
      // 600 of 1,000 spent: another 600 cannot be paid.
      expect(await day.hold({ tokens: 600, costUsd: 0.1 })).toMatchObject({ limit: "maxTokens" });
    }
  });

  it("charges the worst case held for a call whose usage is not a number", async () => {
    const day = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1000 }, shared: memoryLimitStore() });
    const first = { tokens: 600, costUsd: 0 };
    expect(await day.hold(first)).toBeUndefined();
    day.settle(first, { inputTokens: Number.NaN, outputTokens: 0 });
    await settled();
    expect(await day.hold({ tokens: 600, costUsd: 0 })).toMatchObject({ limit: "maxTokens" });
    expect(await day.hold({ tokens: 400, costUsd: 0 })).toBeUndefined();
  });
});
