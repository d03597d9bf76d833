import { describe, expect, it } from "vitest";
import { tenantBudget } from "./tenant-budget.js";

/** Lets the ledger's queued settles reach the store. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("tenantBudget: each hold is given back once, as it was drawn", () => {
  it("refuses a worst case below zero, naming it, and makes no room", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const refused = await ledger.hold({ tokens: -5_000, costUsd: 0 });
    expect(refused?.message).toContain("-5000 tokens");
    expect(await ledger.hold({ tokens: 1_001, costUsd: 0 })).toBeDefined();
  });

  it("settling a hold a second time gives nothing back", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const held = { tokens: 600, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    const other = { tokens: 400, costUsd: 0 };
    expect(await ledger.hold(other)).toBeUndefined();
    ledger.settle(held, { inputTokens: 0, outputTokens: 0 });
    ledger.settle(held, { inputTokens: 0, outputTokens: 0 }); // would give back 600 more of `other`'s room
    await settled();
    expect(await ledger.hold({ tokens: 601, costUsd: 0 })).toBeDefined();
    expect(await ledger.hold({ tokens: 600, costUsd: 0 })).toBeUndefined();
  });

  it("one estimate held twice is given back twice", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const each = { tokens: 500, costUsd: 0 };
    expect(await ledger.hold(each)).toBeUndefined();
    expect(await ledger.hold(each)).toBeUndefined();
    ledger.settle(each, { inputTokens: 0, outputTokens: 0 });
    ledger.settle(each, { inputTokens: 0, outputTokens: 0 });
    await settled();
    expect(await ledger.hold({ tokens: 1_000, costUsd: 0 })).toBeUndefined();
  });

  it("gives back what was drawn, though the estimate was changed after", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const held = { tokens: 100, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    held.tokens = 900;
    ledger.settle(held, { inputTokens: 0, outputTokens: 0 });
    await settled();
    expect(await ledger.hold({ tokens: 1_001, costUsd: 0 })).toBeDefined();
  });

  it("charges a call whose hold was given back (a stream that ended), once per charge", async () => {
    const ledger = tenantBudget({ tenant: "acme", perDay: { maxTokens: 1_000 } });
    const held = { tokens: 500, costUsd: 0 };
    expect(await ledger.hold(held)).toBeUndefined();
    ledger.settle(held, {});
    ledger.charge(held, { inputTokens: 300, outputTokens: 0 });
    await settled();
    expect(await ledger.hold({ tokens: 701, costUsd: 0 })).toBeDefined();
    expect(await ledger.hold({ tokens: 700, costUsd: 0 })).toBeUndefined();
  });
});
