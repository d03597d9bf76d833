import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkClaims } from "./check-claims.js";
import { readLocales } from "./locale-marks.js";

// Any amount Intl writes in a locale the checker reads — plain or as money, in that locale's own
// style — is read back as the value it was written from; a unit more is not (seeded).
const amount = fc.integer({ min: 100, max: 99_999_999_99 }).map((cents) => cents / 100);
const style = fc.constantFrom<Intl.NumberFormatOptions>(
  { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  { style: "currency", currency: "EUR" },
  { style: "currency", currency: "CHF" },
  { style: "currency", currency: "INR" },
  { style: "currency", currency: "USD" },
);

const verdict = (value: number, written: string, locale?: string) =>
  checkClaims(`Revenue was ${written} [s1].`, [{ id: 1, output: { revenue: value } }], { locale }).claims.map((claim) => claim.status);

describe("numbers written in each locale", () => {
  it("read back as the value Intl wrote them from, with the locale given or read from the answer; a unit more is flagged", () => {
    fc.assert(
      fc.property(fc.constantFrom(...readLocales), amount, style, fc.boolean(), (locale, value, options, named) => {
        const written = new Intl.NumberFormat(locale, options).format(value);
        expect(verdict(value, written, named ? locale : undefined)).toEqual(["supported"]);
        expect(verdict(value + 1, written, locale)).toEqual(["unsupported"]);
      }),
      { numRuns: 300, seed: 55 },
    );
  });
});
