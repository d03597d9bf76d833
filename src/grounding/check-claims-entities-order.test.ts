import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

const stores = [
  { store: "Hamburg", sales_eur: 182400 },
  { store: "Cologne", sales_eur: 96300 },
];
const temperatures = [
  { city: "Oslo", high_c: -1.2 },
  { city: "Madrid", high_c: 14.8 },
  { city: "Cairo", high_c: 24.6 },
];
const cashflow = { operating_cash_flow: 1.84, investing_cash_flow: -2.61 };
const status = (answer: string, output: unknown) => checkClaims(answer, [{ id: 1, output }]).claims.map((claim) => claim.status);

describe("comparisons between entities, superlatives by other words, cash used", () => {
  it("a comparative runs from the entity named before 'than' to the one after it", () => {
    expect(status("Hamburg sold €86,100 more than Cologne [s1].", stores)).toEqual(["supported"]);
    expect(status("Hamburg sold €86,100 less than Cologne [s1].", stores)).toEqual(["unsupported"]);
    expect(status("Cologne sold €86,100 less than Hamburg [s1].", stores)).toEqual(["supported"]);
  });

  it("'warmest' and 'coldest' are superlatives", () => {
    expect(status("The warmest high was Cairo's 24.6 degrees [s1].", temperatures)).toEqual(["supported"]);
    expect(status("The warmest high was Madrid's 14.8 degrees [s1].", temperatures)).toEqual(["unsupported"]);
    expect(status("The coldest high was Oslo's -1.2 degrees [s1].", temperatures)).toEqual(["supported"]);
  });

  it("cash 'used' is a negative flow written without its sign", () => {
    expect(status("Investing used $2.61m [s1].", cashflow)).toEqual(["supported"]);
    expect(status("Investing cash flow was $2.61m [s1].", cashflow)).toEqual(["unsupported"]);
  });
});

describe("superlatives written as verbs, records and ranks", () => {
  const regions = [
    { region: "North", revenue: 980, orders: 40 },
    { region: "South", revenue: 1200, orders: 38 },
    { region: "West", revenue: 640, orders: 55 },
  ];
  const months = [
    { month: "2026-09", signups: 310 },
    { month: "2026-10", signups: 420 },
  ];
  it("'led on', 'outsold every', 'a record', 'the weakest' speak of a column's extreme", () => {
    expect(status("South led on revenue at 1,200 [s1].", regions)).toEqual(["supported"]);
    expect(status("North led on revenue at 980 [s1].", regions)).toEqual(["unsupported"]);
    expect(status("North outsold every other region with 40 orders [s1].", regions)).toEqual(["unsupported"]);
    expect(status("Signups hit a record 420 in October [s1].", months)).toEqual(["supported"]);
    expect(status("North had the weakest revenue, 980 [s1].", regions)).toEqual(["unsupported"]);
  });

  it("'the second-highest' is a rank, not the extreme", () => {
    expect(status("North had the second-highest revenue, 980 [s1].", regions)).toEqual(["supported"]);
  });
});
