import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fits, fitsWithin, type Wording } from "./derive.js";
import type { EvidenceNumber } from "./evidence.js";
import { scanPairs } from "./match-number.js";
import { searchPairs } from "./pair-search.js";
import type { Figure, NumberUnit } from "./read-figures.js";

/** Values like a run's: counts, money, rates, fractions, zeros, negatives, and the odd overflow. */
const valueArbitrary = fc.oneof(
  fc.integer({ min: -5, max: 40 }),
  fc.integer({ min: -2_000, max: 200_000 }).map((cents) => cents / 100),
  fc.integer({ min: -100, max: 100 }).map((part) => part / 100),
  fc.constantFrom(0, -0, 1, -1, 0.5, 100, 1e308, Number.POSITIVE_INFINITY),
);

/** A pool smaller or larger than `allPairsUpTo` (every pair, or like values only): values of a few fields from a few steps, and some figures of the sentence. */
const poolArbitrary = fc
  .array(
    fc.record({
      value: valueArbitrary,
      key: fc.constantFrom("orders", "revenue_cny", "refund_rate", "count", "orders_this_week", "orders_last_week", "returns"),
      aggregate: fc.constantFrom(undefined, undefined, undefined, "sum" as const, "min" as const, "max" as const, "mean" as const),
      source: fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom("1", "2", "10", "task") },
        { weight: 1, arbitrary: fc.constant("sentence") },
      ),
    }),
    { minLength: 2, maxLength: 110 },
  )
  .map((numbers) =>
    numbers.map(({ value, key, source, aggregate }, place): EvidenceNumber => {
      const number: EvidenceNumber = {
        source,
        key: source === "sentence" ? "sentence" : key,
        path: source === "sentence" ? String(value) : `rows[${place % 7}].${key}`,
        value,
        stem: key.startsWith("orders") ? "orders" : key,
      };
      // Periods from the field's name, and from a row's day: changes run from the earlier to the later.
      if (key.endsWith("_week")) number.period = { kind: "relative", rank: key.includes("this") ? 1 : 0 };
      else if (place % 3 === 0) number.period = { kind: "date", rank: place % 5 };
      if (aggregate !== undefined && source !== "sentence") number.aggregate = aggregate;
      return number;
    }),
  );

/** A claim, often made from a pair of the pool (so that some pair derives it), at a precision as written. */
function claimArbitrary(pool: readonly EvidenceNumber[]) {
  return fc
    .record({
      unit: fc.constantFrom<NumberUnit | undefined>(undefined, "%", "pp", "x", "currency"),
      first: fc.nat({ max: pool.length - 1 }),
      second: fc.nat({ max: pool.length - 1 }),
      make: fc.constantFrom("sum", "difference", "ratio", "share", "change", "points", "any"),
      any: valueArbitrary,
      precision: fc.constantFrom(1, 0.1, 0.01, 100),
      hedge: fc.constantFrom(undefined, undefined, "about" as const, "over" as const, "under" as const),
      negate: fc.boolean(),
    })
    .map(({ unit, first, second, make, any, precision, hedge, negate }): Figure => {
      const x = pool[first]!.value;
      const y = pool[second]!.value;
      const made = { sum: x + y, difference: x - y, ratio: x / y, share: (x / y) * 100, change: ((x - y) / Math.abs(y)) * 100 };
      const raw = make === "any" ? any : make === "points" ? (x - y) * 100 : made[make];
      const rounded = Math.round((negate ? -raw : raw) / precision) * precision;
      const value = Number.isFinite(rounded) ? rounded : 7;
      return {
        kind: "number",
        text: String(value),
        start: 0,
        end: 1,
        value,
        precision,
        ...(unit ? { unit } : {}),
        ...(hedge ? { hedge } : {}),
      };
    });
}

const wordingArbitrary = fc.record<Wording>({
  direction: fc.constantFrom("up" as const, "down" as const, undefined),
  sums: fc.boolean(),
  differences: fc.boolean(),
  comparative: fc.constantFrom("up" as const, "down" as const, undefined),
  namedKeys: fc.constantFrom(undefined, new Set(["orders", "returns"]), new Set(["revenue_cny", "refund_rate", "count"])),
});

const caseArbitrary = poolArbitrary.chain((pool) => fc.tuple(fc.constant(pool), claimArbitrary(pool), wordingArbitrary));

describe("searchPairs", () => {
  it("finds the same first pair as trying every pair in order", () => {
    fc.assert(
      fc.property(caseArbitrary, ([pool, claim, wording]) => {
        const scanned = scanPairs(claim, pool, wording);
        const searched = searchPairs(claim, pool, wording);
        expect(searched?.derivation).toBe(scanned?.derivation);
        expect(searched?.operands.map((number) => pool.indexOf(number))).toEqual(scanned?.operands.map((number) => pool.indexOf(number)));
      }),
      { numRuns: 600 },
    );
  });

  it("finds pairs a large pool holds, and none it does not", () => {
    const pool: EvidenceNumber[] = Array.from({ length: 60 }, (_, place) => ({
      source: String(place),
      key: "orders",
      path: "orders",
      value: 100 + place,
    }));
    const claim = (value: number, unit?: NumberUnit): Figure => ({
      kind: "number",
      text: "",
      start: 0,
      end: 1,
      value,
      precision: 0.1,
      ...(unit ? { unit } : {}),
    });
    const wording = { direction: undefined, sums: true, differences: true };
    expect(searchPairs(claim(201), pool, wording)).toMatchObject({ derivation: "sum", operands: [pool[0], pool[1]] });
    expect(searchPairs(claim(62.9, "%"), pool, wording)).toMatchObject({ derivation: "share", operands: [pool[0], pool[59]] });
    expect(searchPairs(claim(500), pool, wording)).toBeUndefined();
  });
});

describe("fitsWithin", () => {
  it("reaches every value that fits", () => {
    fc.assert(
      fc.property(
        fc.record({
          written: fc.integer({ min: -1_000_000, max: 1_000_000 }),
          precision: fc.constantFrom(1, 0.1, 0.01, 1_000),
          hedge: fc.constantFrom(undefined, "about" as const, "over" as const, "under" as const),
          offset: fc.double({ min: -5, max: 5, noNaN: true }),
        }),
        ({ written, precision, hedge, offset }) => {
          const claim: Figure = {
            kind: "number",
            text: "",
            start: 0,
            end: 1,
            value: written * precision,
            precision,
            ...(hedge ? { hedge } : {}),
          };
          const value = claim.value! + offset * precision * (hedge ? 1_000 : 1);
          if (fits(claim, value)) expect(Math.abs(value - claim.value!)).toBeLessThanOrEqual(fitsWithin(claim));
        },
      ),
    );
  });
});
