import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Issue 55's thirteenth batch of report shapes (bench/grounding/report-shapes-thirteenth-cases.ts):
// each of these failed on the checker before its fixes.

const status = (answer: string, output: unknown) =>
  checkClaims(answer, [{ id: 1, output }])
    .claims.filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

describe("reports of tools' outputs", () => {
  it("a sentence that names labels of two columns speaks of the rows that hold both ('Ana Souza won')", () => {
    const deals = [
      { deal: "Acme renewal", stage: "won", amount_usd: 48000, owner: "Li Wei" },
      { deal: "Globex expansion", stage: "lost", amount_usd: 31000, owner: "Ana Souza" },
      { deal: "Initech pilot", stage: "won", amount_usd: 12500, owner: "Ana Souza" },
    ];
    expect(status("Ana Souza won $48,000 [s1].", deals)).toEqual(["unsupported"]);
    expect(status("Ana Souza won $12,500 [s1].", deals)).toEqual(["supported"]);
    expect(status("Li Wei won $48,000 [s1].", deals)).toEqual(["supported"]);
  });

  it("'beat' is a rise and 'missed' a fall", () => {
    const target = { revenue_target_usd: 500000, revenue_usd: 462000 };
    expect(status("Revenue beat target by 7.6% [s1].", target)).toEqual(["unsupported"]);
    expect(status("Revenue missed target by 7.6% [s1].", target)).toEqual(["supported"]);
  });

  it("a spread over sibling objects, with a unit after each bound", () => {
    const services = { services: { api: { p95_ms: 412 }, web: { p95_ms: 288 }, worker: { p95_ms: 1210 } } };
    expect(status("p95 latency ranged from 288 ms to 412 ms across services [s1].", services)).toEqual(["supported", "unsupported"]);
    expect(status("p95 latency ranged from 288 ms to 1,210 ms across services [s1].", services)).toEqual(["supported", "supported"]);
  });

  it("a plan's field pairs with what happened, whatever that is called", () => {
    const budget = { budget_usd: 50000, spent_usd: 46500 };
    expect(status("Spending came in $3,500 under budget [s1].", budget)).toEqual(["supported"]);
    expect(status("Spending ran $3,500 over budget [s1].", budget)).toEqual(["unsupported"]);
    const quota = { quota: 100, closed_deals: 107 };
    expect(status("Sales beat quota by 7% [s1].", quota)).toEqual(["supported"]);
    expect(status("Sales missed quota by 7% [s1].", quota)).toEqual(["unsupported"]);
  });

  it("Stripe's amounts in cents beside a lower-case currency are money in dollars too; yen has no cents", () => {
    const charge = { id: "ch_1", amount: 12900, amount_refunded: 2500, currency: "usd" };
    expect(status("The charge was for $129.00, of which $25.00 was refunded [s1].", charge)).toEqual(["supported", "supported"]);
    expect(status("Net of the refund, $104.00 was kept [s1].", charge)).toEqual(["supported"]);
    expect(status("The charge was for 12,900 cents [s1].", charge)).toEqual(["supported"]);
    const balance = [
      { id: "txn_1", type: "charge", amount: 12900, fee: 404, currency: "usd" },
      { id: "txn_3", type: "charge", amount: 8400, fee: 274, currency: "usd" },
    ];
    expect(status("Fees totalled $6.78 [s1].", balance)).toEqual(["supported"]);
    expect(status("The charge was for ¥129 [s1].", { amount: 12900, currency: "jpy" })).toEqual(["unsupported"]);
  });
});
