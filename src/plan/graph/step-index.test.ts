import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StepIndex } from "./step-index.js";

describe("StepIndex", () => {
  it("answers like a Map for any mix of numbered and named keys, repeats included", () => {
    // Named keys of every kind, and many of one pattern, so the table of named keys grows several times.
    const named = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom("a", "é", "-", "😀"), maxLength: 3 }),
      fc.nat({ max: 400 }).map((n) => `step-${n}`),
    );
    const key = fc.oneof(
      fc.nat({ max: 2_000_000 }).map(String),
      fc.constantFrom("0", "00", "07", "1.0", "-1", "", "999999", "1000000", "٣"),
      named,
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.nat()), { maxLength: 300, size: "max" }),
        fc.array(key, { maxLength: 10 }),
        (entries, probes) => {
          const index = new StepIndex();
          const map = new Map<string, number>();
          for (const [name, position] of entries) {
            index.set(name, position);
            map.set(name, position);
          }
          expect(index.size).toBe(map.size);
          for (const name of [...map.keys(), ...probes]) {
            expect(index.get(name)).toBe(map.get(name));
            expect(index.has(name)).toBe(map.has(name));
          }
        },
      ),
    );
  });
});
