import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../core/errors.js";
import { checkClaims, type ClaimEvidence, type CheckClaimsOptions } from "./check-claims.js";

// Figures as people write them: other locales' separators and currency places, signs, words, ranges.
const verdicts = (answer: string, steps: ClaimEvidence, options?: CheckClaimsOptions) =>
  checkClaims(answer, steps, options).claims.map((claim) => [claim.text, claim.status]);

const sales = [{ id: 1, output: { revenue_eur: 1234.5, revenue_chf: 1234.5, orders: 98765.4, revenue_inr: 1234567 } }];

describe("checkClaims reads figures as people write them", () => {
  it("supports a figure written in another locale's style, and flags a wrong one written so", () => {
    expect(verdicts("Umsatz: €1.234,50 [s1].", sales)).toEqual([["€1.234,50", "supported"]]);
    expect(verdicts("Chiffre d'affaires : 1 234,50 € [s1].", sales)).toEqual([["1 234,50 €", "supported"]]);
    expect(verdicts("Umsatz: CHF 1'234.50 [s1].", sales)).toEqual([["CHF 1'234.50", "supported"]]);
    expect(verdicts("Revenue was ₹12,34,567 [s1].", sales)).toEqual([["₹12,34,567", "supported"]]);
    expect(verdicts("Bestellwert 98.765,40 EUR [s1].", sales)).toEqual([["98.765,40 EUR", "supported"]]);
    expect(verdicts("Umsatz: €1.243,50 [s1].", sales)).toEqual([["€1.243,50", "unsupported"]]);
    expect(verdicts("Revenue was ₹12,34,576 [s1].", sales)).toEqual([["₹12,34,576", "unsupported"]]);
  });

  it("reads an ambiguous figure by the locale option, else by the answer's unambiguous ones", () => {
    const steps = [{ id: 1, output: { units: 1234, price_eur: 1234.5 } }];
    expect(verdicts("We sold 1.234 units [s1].", steps, { locale: "de" })).toEqual([["1.234", "supported"]]);
    expect(verdicts("We sold 1.234 units [s1].", steps)).toEqual([["1.234", "unsupported"]]);
    expect(verdicts("Wir verkauften 1.234 Stück zu 1.234,50 € [s1].", steps)).toEqual([
      ["1.234", "supported"],
      ["1.234,50 €", "supported"],
    ]);
    expect(() => checkClaims("1.234", steps, { locale: "not a locale!" })).toThrow(InvalidOptionsError);
  });

  it("compares a figure's sign: a dropped minus is not supported unless the words carry it", () => {
    const income = [{ id: 1, output: { net_income_usd: -1200, revenue_usd: 5000 } }];
    expect(verdicts("Net income was 1,200 [s1].", income)).toEqual([["1,200", "unsupported"]]);
    expect(verdicts("Net income was -1,200 [s1].", income)).toEqual([["-1,200", "supported"]]);
    expect(verdicts("Net income was (1,200.00) [s1].", income)).toEqual([["1,200.00", "supported"]]);
    expect(verdicts("The net loss was $1,200 [s1].", income)).toEqual([["$1,200", "supported"]]);
    expect(verdicts("Revenue was -5,000 [s1].", income)).toEqual([["-5,000", "unsupported"]]);
  });

  it("reads numbers written in words", () => {
    const tickets = [{ id: 1, output: { tickets: 15, orders: 240 } }];
    expect(verdicts("We closed fifteen tickets and two hundred and forty orders [s1].", tickets)).toEqual([
      ["fifteen", "supported"],
      ["two hundred and forty", "supported"],
    ]);
    expect(verdicts("We closed sixteen tickets [s1].", tickets)).toEqual([["sixteen", "unsupported"]]);
  });

  it("supports a range that holds a value shown, and flags one that does not", () => {
    const rate = [{ id: 1, output: { refund_rate: 0.131, revenue_cny: 64577.01 } }];
    expect(verdicts("The refund rate was 12–15% [s1].", rate)).toEqual([
      ["12", "supported"],
      ["15%", "supported"],
    ]);
    expect(verdicts("Revenue was between ¥60k and ¥70k [s1].", rate)).toEqual([
      ["¥60k", "supported"],
      ["¥70k", "supported"],
    ]);
    expect(verdicts("Revenue was between ¥70k and ¥80k [s1].", rate)).toEqual([
      ["¥70k", "unsupported"],
      ["¥80k", "unsupported"],
    ]);
  });
});
