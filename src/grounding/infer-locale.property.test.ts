import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLocales } from "./locale-marks.js";
import { inferLocale } from "./read-numbers.js";

// inferLocale reads each way of writing a number once, however often the answer repeats it (a
// speed-up for long answers: bench:grounding-time). Held here to the plain count: each number's
// vote read on its own, the locale with the most votes winning, the first to reach it on a tie.
const written = fc
  .tuple(
    fc.constantFrom(...readLocales),
    fc.integer({ min: 0, max: 99_999_999 }),
    fc.constantFrom(0, 1, 2, 3),
    fc.constantFrom<Intl.NumberFormatOptions>({}, { style: "currency", currency: "EUR" }, { style: "currency", currency: "INR" }),
  )
  .map(([locale, cents, digits, options]) =>
    new Intl.NumberFormat(locale, { ...options, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(cents / 100),
  );

/** The plain count: one number at a time, in order. */
function plainInference(numbers: readonly string[]): string | undefined {
  const votes = new Map<string, number>();
  for (const number of numbers) {
    const vote = inferLocale(number);
    if (vote !== undefined) votes.set(vote, (votes.get(vote) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [locale, count] of votes) if (best === undefined || count > votes.get(best)!) best = locale;
  return best;
}

describe("inferLocale", () => {
  it("finds the locale the plain count of each number's vote finds, with numbers repeated", () => {
    fc.assert(
      fc.property(fc.array(written, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (distinct, repeats) => {
        // Repeats of earlier numbers are what the memo reads once.
        const numbers = [...distinct, ...repeats.map((at) => distinct[at % distinct.length]!)];
        expect(inferLocale(numbers.join(" and then "))).toBe(plainInference(numbers));
      }),
      { numRuns: 400, seed: 55 },
    );
  });

  it("reads an answer by the numbers that say their locale", () => {
    expect(inferLocale("Revenue was 98.765,40 EUR, 1.234,50 and 12,5 more")).toBe(plainInference(["98.765,40", "1.234,50", "12,5"]));
    expect(inferLocale("Revenue was 98.765,40 EUR")).not.toBe(inferLocale("Revenue was 98,765.40 USD"));
  });
});
