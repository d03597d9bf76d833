import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Sentences that name the same rows of the same steps share their pools (claim-pools.ts): the
// verdicts must be those of each sentence checked alone, with nothing shared.
const days = [
  { day: "2026-11-16", orders: 23, revenue_cny: 11843.54 },
  { day: "2026-11-17", orders: 18, revenue_cny: 10209.16 },
  { day: "2026-11-18", orders: 21, revenue_cny: 10850.2 },
];
const steps = [
  { id: 1, output: { orders_this_week: 62, orders_last_week: 55, regions: { north: { revenue: 1000 }, south: { revenue: 980 } } } },
  { id: 2, output: days },
];
const sentences = [
  "On 2026-11-17 the shop took 18 orders worth ¥10,209.16 [s2].",
  "On 2026-11-17 the shop took 19 orders, 5 fewer than the day before [s2].",
  "On 2026-11-18 orders rose 16.7% [s2].",
  "The busiest day was 2026-11-16, with 23 orders [s2].",
  "The busiest day was 2026-11-17, with 18 orders [s2].",
  "Orders rose 12.7% to 62 this week [s1].",
  "North's revenue was 980 [s1].",
  "North and South made 1,980 together [s1].",
  "Orders totalled 62 in all [s1, s2].",
];

describe("pools shared across sentences", () => {
  it("give every sentence the verdicts it gets alone, in any order", () => {
    const alone = sentences.map((sentence) => checkClaims(sentence, steps).claims.map((claim) => [claim.text, claim.status]));
    for (const order of [sentences, [...sentences].reverse(), [...sentences, ...sentences]]) {
      const together = checkClaims(order.join("\n"), steps);
      const bySentence = order.map((_, index) =>
        together.claims.filter((claim) => claim.sentence === index).map((claim) => [claim.text, claim.status]),
      );
      expect(bySentence).toEqual(order.map((sentence) => alone[sentences.indexOf(sentence)]));
    }
  });
});
