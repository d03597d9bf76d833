import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

const status = (answer: string, output: unknown) => checkClaims(answer, [{ id: 1, output }]).claims.map((claim) => claim.status);

describe("shapes of periods and money as APIs send them", () => {
  it("a citation after the last full stop of the answer belongs to its sentence", () => {
    const output = { revenue_this_month: 52000, revenue_last_month: 48000 };
    expect(status("Revenue rose $4,000 month over month. [s1]", output)).toEqual(["supported"]);
  });

  it("`_ly` is last year's field, `opening` and `closing` a balance's two ends", () => {
    expect(status("Revenue grew 14.3% year on year [s1].", { revenue: 1.2, revenue_ly: 1.05 })).toEqual(["supported"]);
    expect(status("Revenue fell 14.3% year on year [s1].", { revenue: 1.2, revenue_ly: 1.05 })).toEqual(["unsupported"]);
    expect(status("Cash rose by 300 [s1].", { cash_opening: 1200, cash_closing: 1500 })).toEqual(["supported"]);
  });

  it("a figure in brackets after a change restates it, in its direction", () => {
    const output = { current: { mrr: 52400 }, prior: { mrr: 49800 } };
    expect(status("MRR up 5.2% ($2,600) [s1].", output)).toEqual(["supported", "supported"]);
    expect(status("MRR fell 5.2% ($2,600) [s1].", output)).toEqual(["unsupported", "unsupported"]);
  });

  it("prices written as strings are summed with their column", () => {
    const orders = {
      orders: [
        { id: 1001, total_price: "129.90" },
        { id: 1002, total_price: "54.10" },
      ],
    };
    expect(status("The orders came to $184.00 [s1].", orders)).toEqual(["supported"]);
    expect(status("The orders came to $194.00 [s1].", orders)).toEqual(["unsupported"]);
  });
});

describe("derivations the words ask for", () => {
  it("'under budget' is a difference against the plan, in its direction", () => {
    expect(status("Actual spend came in $3,500 under budget [s1].", { budget: 50000, actual: 46500 })).toEqual(["supported"]);
    expect(status("Actual spend came in $3,500 over budget [s1].", { budget: 50000, actual: 46500 })).toEqual(["unsupported"]);
  });

  it("'the LTV to CAC ratio' and 'LTV:CAC' are ratios of the fields named", () => {
    expect(status("The LTV to CAC ratio is 3 [s1].", { ltv: 900, cac: 300 })).toEqual(["supported"]);
    expect(status("LTV:CAC is 3.0 [s1].", { ltv: 900, cac: 300 })).toEqual(["supported"]);
  });

  it("a count of phone calls is no phone number: it adds up with the other channels", () => {
    expect(status("Email, chat and phone brought 550 contacts in all [s1].", { email: 120, chat: 340, phone: 90 })).toEqual(["supported"]);
  });
});

describe("changes written in German, French, Spanish and Italian", () => {
  it("pairs a field with its earlier twin (`_vorjahr`, `_precedent`) and reads the direction", () => {
    expect(status("Der Umsatz stieg um 10 % [s1].", { umsatz: 1100, umsatz_vorjahr: 1000 })).toEqual(["supported"]);
    expect(status("Der Umsatz sank um 10 % [s1].", { umsatz: 1100, umsatz_vorjahr: 1000 })).toEqual(["unsupported"]);
    expect(status("Le CA a diminué de 10 % [s1].", { ca: 1100, ca_precedent: 1000 })).toEqual(["unsupported"]);
    expect(status("Las ventas subió 10 % [s1].", { ventas: 1100, ventas_anterior: 1000 })).toEqual(["supported"]);
  });
});

describe("sums and means of named fields across the steps cited", () => {
  it("adds the fields named in three steps, and averages one field of two", () => {
    const steps = [
      { id: 1, output: { orders: 127 } },
      { id: 2, output: { returns: 14 } },
      { id: 3, output: { exchanges: 9 } },
    ];
    const report = checkClaims("Orders, returns and exchanges came to 150 in all [s1, s2, s3].", steps);
    expect(report.claims.map((claim) => [claim.status, claim.steps])).toEqual([["supported", ["1", "2", "3"]]]);
    expect(checkClaims("Orders, returns and exchanges came to 160 in all [s1, s2, s3].", steps).claims[0]!.status).toBe("unsupported");
    const weeks = [
      { id: 1, output: { revenue: 900 } },
      { id: 2, output: { revenue: 1100 } },
    ];
    expect(checkClaims("Revenue averaged 1,000 over the weeks [s1, s2].", weeks).claims.map((claim) => claim.status)).toEqual([
      "supported",
    ]);
  });
});
