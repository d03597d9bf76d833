// Outside review (flow control): a tenant's budget for the day "charges what a call really cost"
// and lets the tenant "spend less that day, never more" (docs/limits.md). A call the run gave up
// on while the provider was answering (cancelled, a deadline) is given back whole and charged
// nothing, so a tenant whose runs are cut off mid-call spends past its day without the ledger
// seeing any of it. Now such a call keeps its hold on the day's ledger (`Reservation.cutOff`), as
// a cut-off call keeps its tokens on a limit's line; a call the provider refused with a status
// gives it back.
import { describe, expect, it } from "vitest";
import { Budget, runAgent, tenantBudget } from "../../src/index.js";
import { memoryLimitStore } from "../../src/core/limit-store.js";
import type { ModelRequest } from "../../src/core/model.js";

/** A model whose every call costs at most 600 tokens and answers only once it is cut off (the provider kept working). */
function slowModel(reached: { calls: number }, answered: () => void) {
  const model = (request: ModelRequest) =>
    new Promise<never>((_, reject) => {
      reached.calls += 1;
      answered();
      request.signal?.addEventListener("abort", () => reject(request.signal!.reason), { once: true });
    });
  return Object.assign(model, { maxCallCost: () => ({ tokens: 600, costUsd: 0 }) });
}

describe("a tenant's day and calls cut off mid-way", () => {
  it("keeps a cut-off call's worst case on the day's ledger: three 600-token calls do not fit a 1,000-token day", async () => {
    const shared = memoryLimitStore();
    const reached = { calls: 0 };
    for (let run = 0; run < 3; run += 1) {
      const controller = new AbortController();
      const budget = new Budget({}, { shared: tenantBudget({ tenant: "acme", perDay: { maxTokens: 1000 }, shared }) });
      const model = slowModel(reached, () => setTimeout(() => controller.abort(new Error("cancelled")), 10));
      await runAgent({ model, task: "t", toolExecutor: { execute: () => "" }, budget, signal: controller.signal, tenant: "acme" }).catch(
        () => undefined,
      );
    }
    // The first call holds 600 of 1,000; a second cannot be paid while it may have spent them.
    expect(reached.calls).toBe(1);
  });

  it("gives back the hold of a call the provider refused with a status: it spent nothing", async () => {
    const shared = memoryLimitStore();
    let calls = 0;
    const refused = Object.assign(
      async () => {
        calls += 1;
        throw Object.assign(new Error("the server answered 400"), { status: 400 });
      },
      { maxCallCost: () => ({ tokens: 600, costUsd: 0 }) },
    );
    for (let run = 0; run < 3; run += 1) {
      const budget = new Budget({}, { shared: tenantBudget({ tenant: "acme", perDay: { maxTokens: 1000 }, shared }) });
      await runAgent({ model: refused, task: "t", toolExecutor: { execute: () => "" }, budget, tenant: "acme" }).catch(() => undefined);
    }
    expect(calls).toBe(3);
  });
});
