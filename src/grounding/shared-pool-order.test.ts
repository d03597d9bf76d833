import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";

// Sentences that name the same rows of the same steps share their pools and the pair search's
// sorting of them; the fields a sentence names are its own. A step of more than 40 values (where
// only like values pair) once kept the first sentence's named fields for every later one.
const filler = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`metric_${index}`, 1_000 + index * 37]));
const steps = [
  { id: 1, output: { orders: 127, refunds: 30, ...filler } },
  { id: 2, output: { returns: 14, chargebacks: 5 } },
];
const sentences = ["Orders exceeded returns by 113 [s1, s2].", "Refunds exceeded chargebacks by 25 [s1, s2]."];
const statuses = (answer: string) => checkClaims(answer, steps).claims.map((claim) => `${claim.text}: ${claim.status}`);

describe("sentences sharing a large pool, naming other fields", () => {
  it("are each checked as they are alone, whichever comes first", () => {
    const alone = sentences.flatMap(statuses);
    expect(alone).toEqual(["113: supported", "25: supported"]);
    expect(statuses(sentences.join(" "))).toEqual(alone);
    expect(statuses([...sentences].reverse().join(" "))).toEqual([...alone].reverse());
  });
});
