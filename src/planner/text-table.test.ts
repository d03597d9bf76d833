import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextTable } from "./text-table.js";

describe("TextTable", () => {
  it("answers like a Map for any sets and lookups, while it grows", () => {
    // Short keys from a small alphabet (the same key comes back often) and numbered ones (many
    // keys, so the table grows several times).
    const key = fc.oneof(fc.string({ unit: fc.constantFrom("a", "b", "é", "1", "-", "😀"), maxLength: 4 }), fc.nat({ max: 400 }).map((n) => `step-${n}`));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.nat()), { maxLength: 300, size: "max" }), fc.array(key, { maxLength: 50 }), (sets, lookups) => {
        const table = new TextTable();
        const model = new Map<string, number>();
        for (const [text, value] of sets) {
          table.set(text, value);
          model.set(text, value);
          expect(table.size).toBe(model.size);
        }
        for (const text of [...lookups, ...model.keys()]) expect(table.get(text)).toBe(model.get(text));
      }),
    );
  });
});
