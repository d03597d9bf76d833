import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../core/canonical-json.js";
import { textKeyed } from "../core/records.js";
import { CallCounts, callKey, callSignature } from "./call-counts.js";

// Names that could confuse a key: a separator in them, `__proto__`, nothing.
const name = fc.oneof(fc.constantFrom("q", "q ", "q\u0000", "q\u0000{", "", "__proto__"), fc.string({ unit: "binary", maxLength: 3 }));
// Few values, so that calls repeat; keys in any order, so that alike calls are written differently.
const args = fc.oneof(
  fc.constant(undefined),
  fc
    .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "__proto__"), fc.constantFrom<unknown>(1, "1", null, [1], { x: 1 })), {
      selector: ([key]) => key,
      maxLength: 3,
    })
    .map((entries) => {
      const record: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(record, key, { value, enumerable: true, writable: true });
      return record;
    }),
);
const calls = fc.array(fc.record({ name, args }), { maxLength: 40 });

/** The plain counting the state has always kept: by signature, in a record. */
function countBySignature(record: Record<string, number>, call: { name: string; args: unknown }): number {
  const signature = callSignature(call.name, call.args);
  record[signature] = (record[signature] ?? 0) + 1;
  return record[signature];
}

describe("callKey", () => {
  it("is equal exactly for the same tool and the same canonical arguments", () => {
    fc.assert(
      fc.property(name, args, name, args, (firstName, firstArgs, secondName, secondArgs) => {
        const same = firstName === secondName && canonicalJson(firstArgs ?? {}) === canonicalJson(secondArgs ?? {});
        expect(callKey(firstName, firstArgs) === callKey(secondName, secondArgs)).toBe(same);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("CallCounts", () => {
  it("counts and keeps what counting by signature counts and keeps, also continued from a kept record", () => {
    fc.assert(
      fc.property(calls, fc.nat(), (sequence, cut) => {
        const plain = textKeyed<number>();
        let counts = new CallCounts();
        const at = sequence.length === 0 ? 0 : cut % sequence.length;
        sequence.forEach((call, index) => {
          // Continued from the state as kept, as a resumed loop is.
          if (index === at) counts = new CallCounts(JSON.parse(JSON.stringify(counts.kept())) as Record<string, number>);
          expect(counts.add(callKey(call.name, call.args))).toBe(countBySignature(plain, call));
        });
        const kept = counts.kept();
        expect(kept).toEqual(plain);
        expect(Object.keys(kept)).toEqual(Object.keys(plain));
      }),
      { numRuns: 1_000 },
    );
  });

  it("keeps no argument in clear, and leaves the record it continued from alone", () => {
    const brought = { [callSignature("pay", { card: "4242" })]: 2 };
    const counts = new CallCounts(brought);
    expect(counts.add(callKey("pay", { card: "4242" }))).toBe(3);
    expect(JSON.stringify(counts.kept())).not.toContain("4242");
    expect(Object.values(brought)).toEqual([2]);
  });
});
