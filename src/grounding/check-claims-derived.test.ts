import { describe, expect, it } from "vitest";
import { checkClaims, type ClaimEvidence } from "./check-claims.js";

// Derivations between values of different fields, where the sentence's words support the pairing.
const verdicts = (answer: string, steps: ClaimEvidence) =>
  checkClaims(answer, steps).claims.map((claim) => [claim.text, claim.status, claim.derivation ?? ""]);

const weeks = [{ id: 1, output: { tickets_this_week: 30, tickets_last_week: 27, revenue_this_week: 900, revenue_last_week: 1000 } }];
const regions = [
  {
    id: 1,
    output: [
      { region: "North", revenue: 1000, refunds: 40 },
      { region: "South", revenue: 980, refunds: 52 },
      { region: "East", revenue: 600, refunds: 65 },
      { region: "West", revenue: 720, refunds: 44 },
    ],
  },
];

describe("checkClaims derives figures across fields", () => {
  it("sums two fields the sentence names, whatever their keys", () => {
    const steps = [
      { id: 1, output: { orders: 127 } },
      { id: 2, output: { returns: 14 } },
    ];
    expect(verdicts("Orders and returns together: 141 [s1, s2].", steps)).toEqual([["141", "supported", "sum"]]);
    expect(verdicts("Orders and returns together: 143 [s1, s2].", steps)).toEqual([["143", "unsupported", ""]]);
  });

  it("sums and averages a set of named fields", () => {
    const steps = [{ id: 1, output: { orders: 127, returns: 14, exchanges: 9, tickets: 30 } }];
    expect(verdicts("Orders, returns and exchanges came to 150 in all [s1].", steps)).toEqual([["150", "supported", "value"]]);
    expect(verdicts("Orders, returns and exchanges came to 180 in all [s1].", steps)).toEqual([["180", "unsupported", ""]]);
    expect(verdicts("Orders, returns and exchanges averaged 50 [s1].", steps)).toEqual([["50", "supported", "value"]]);
  });

  it("reads a change between a measure's two periods, and checks its direction", () => {
    expect(verdicts("We had 3 more tickets than last week [s1].", weeks)).toEqual([["3", "supported", "difference"]]);
    expect(verdicts("We had 3 fewer tickets than last week [s1].", weeks)).toEqual([["3", "unsupported", ""]]);
    expect(verdicts("Revenue fell 10% on last week [s1].", weeks)).toEqual([["10%", "supported", "percent-change"]]);
    expect(verdicts("Revenue rose 10% on last week [s1].", weeks)).toEqual([["10%", "unsupported", ""]]);
    expect(verdicts("Revenue was down 100 on last week [s1].", weeks)).toEqual([["100", "supported", "difference"]]);
    expect(verdicts("Revenue was up 100 on last week [s1].", weeks)).toEqual([["100", "unsupported", ""]]);
  });

  it("reads months as periods, and a change of one named period against the period before it", () => {
    const months = [
      { id: 1, output: { revenue_october: 1000, revenue_november: 1100 } },
      {
        id: 2,
        output: [
          { month: "September", orders: 45 },
          { month: "October", orders: 40 },
          { month: "November", orders: 50 },
        ],
      },
    ];
    expect(verdicts("Revenue rose 10% in November [s1].", months)).toEqual([["10%", "supported", "percent-change"]]);
    expect(verdicts("Revenue fell 10% in November [s1].", months)).toEqual([["10%", "unsupported", ""]]);
    expect(verdicts("Orders rose 25% in November [s2].", months)).toEqual([["25%", "supported", "percent-change"]]);
    expect(verdicts("Orders fell 25% in November [s2].", months)).toEqual([["25%", "unsupported", ""]]);
    // September is not the month before November: no change from it is read.
    expect(verdicts("Orders rose 11.1% in November [s2].", months)).toEqual([["11.1%", "unsupported", ""]]);
  });

  it("never pairs a column's smallest, largest or mean as if they were two periods", () => {
    // Revenue: min 600, max 1,000, mean 825; refunds: min 40, max 65. No change between them happened.
    expect(verdicts("Revenue fell 10% [s1].", regions)).toEqual([["10%", "unsupported", ""]]);
    expect(verdicts("Refunds rose 62.5% [s1].", regions)).toEqual([["62.5%", "unsupported", ""]]);
    expect(verdicts("Revenue was up 400 [s1].", regions)).toEqual([["400", "unsupported", ""]]);
  });

  it("checks a figure claimed for an entity against that entity's row or object", () => {
    const nested = [{ id: 1, output: { regions: { north: { revenue: 1000 }, south: { revenue: 980 } } } }];
    expect(verdicts("North's revenue was 980.00 [s1].", nested)).toEqual([["980.00", "unsupported", ""]]);
    expect(verdicts("North's revenue was 1,000 [s1].", nested)).toEqual([["1,000", "supported", "value"]]);
    expect(verdicts("North's revenue was 980.00 [s1].", regions)).toEqual([["980.00", "unsupported", ""]]);
    expect(verdicts("South's revenue was 980.00 [s1].", regions)).toEqual([["980.00", "supported", "value"]]);
    expect(verdicts("North and South made 1,980 together [s1].", regions)).toEqual([["1,980", "supported", "value"]]);
  });

  it("checks a superlative against the column", () => {
    expect(verdicts("The largest revenue was North's, 1,000 [s1].", regions)).toEqual([["1,000", "supported", "value"]]);
    expect(verdicts("The largest revenue was 980 [s1].", regions)).toEqual([["980", "unsupported", ""]]);
    expect(verdicts("The lowest refunds were 40 [s1].", regions)).toEqual([["40", "supported", "value"]]);
    expect(verdicts("The lowest refunds were 44, in West [s1].", regions)).toEqual([["44", "unsupported", ""]]);
  });

  it("takes hostile field names as data: __proto__ and constructor are entities and periods like any other", () => {
    const hostile = [{ id: 1, output: JSON.parse('{"__proto__": {"revenue": 5}, "constructor": {"revenue": 7}, "hasOwnProperty_m": 3}') }];
    expect(verdicts("The constructor's revenue was 7 [s1].", hostile)).toEqual([["7", "supported", "value"]]);
    expect(verdicts("The constructor's revenue was 5 [s1].", hostile)).toEqual([["5", "unsupported", ""]]);
    expect(verdicts("It was 3 million [s1].", hostile)).toEqual([["3 million", "supported", "value"]]);
  });
});
