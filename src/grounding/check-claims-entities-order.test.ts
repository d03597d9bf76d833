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
