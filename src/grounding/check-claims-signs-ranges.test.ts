import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

const status = (answer: string, output: unknown) =>
  checkClaims(answer, [{ id: 1, output }])
    .claims.filter((claim) => claim.kind === "number")
    .map((claim) => claim.status);

describe("a figure's sign, where the words do not carry it", () => {
  it("the level a measure fell to keeps its sign; the amount it fell by may drop it", () => {
    const income = { net_income_usd: -1200, net_income_prev_usd: 500 };
    expect(status("Net income fell to $1,200 [s1].", income)).toEqual(["unsupported"]);
    expect(status("Net income fell to -$1,200 [s1].", income)).toEqual(["supported"]);
    expect(status("Margin dropped to 1.5% [s1].", { margin_pct: -1.5, margin_pct_prev: 2.0 })).toEqual(["unsupported"]);
    expect(status("The index fell 3.1% [s1].", { change_pct: -3.1 })).toEqual(["supported"]);
  });

  it("brackets where a value stands are a minus; beside another figure, an aside of either sign", () => {
    expect(status("Net income: (1,200.00) [s1].", { net_income_usd: 1200 })).toEqual(["unsupported"]);
    expect(status("Net income: (1,200.00) [s1].", { net_income_usd: -1200 })).toEqual(["supported"]);
    expect(status("7 orders ($2,916.44) were refunded [s1].", { orders: 7, refunds_usd: 2916.44 })).toEqual(["supported", "supported"]);
  });

  it("'overdrawn' carries the minus of a negative balance", () => {
    expect(status("The account is overdrawn by €340.50 [s1].", { balance_eur: -340.5 })).toEqual(["supported"]);
    expect(status("The account balance is €340.50 [s1].", { balance_eur: -340.5 })).toEqual(["unsupported"]);
  });
});

describe("a range that says it is a spread", () => {
  const teams = [
    { team: "Core", incidents: 3 },
    { team: "Growth", incidents: 7 },
    { team: "Infra", incidents: 12 },
  ];
  it("speaks of a column's ends even where the column is wider than it", () => {
    expect(status("Incidents ranged 3–12 per team [s1].", teams)).toEqual(["supported", "supported"]);
    expect(status("Incidents ranged 3–10 per team [s1].", teams)).toEqual(["supported", "unsupported"]);
    expect(status("Revenue was between ¥60k and ¥70k [s1].", { revenue_cny: 64577 })).toEqual(["supported", "supported"]);
  });
});
