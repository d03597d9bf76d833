import { describe, expect, it } from "vitest";
import { isDecimalMultiple } from "./decimal-multiple.js";
import { jsonSchemaCheck } from "./json-schema-check.js";

describe("multipleOf on decimals as written", () => {
  it("takes prices in cents that binary floating point gets wrong, and refuses what is not a multiple", () => {
    for (const price of [19.99, 0.07, 0.1, 0.3, 1.15, 12345678.91, 0]) expect(isDecimalMultiple(price, 0.01)).toBe(true);
    for (const price of [19.995, 0.001, 1.155]) expect(isDecimalMultiple(price, 0.01)).toBe(false);
  });

  it("gives the JSON-Schema-Test-Suite's verdicts: by number, by small number, a division past the doubles, exponents", () => {
    expect(isDecimalMultiple(4.5, 1.5)).toBe(true);
    expect(isDecimalMultiple(35, 1.5)).toBe(false);
    expect(isDecimalMultiple(0.0075, 0.0001)).toBe(true);
    expect(isDecimalMultiple(0.00751, 0.0001)).toBe(false);
    expect(isDecimalMultiple(1e308, 0.123456789)).toBe(false);
    expect(isDecimalMultiple(12391239123, 1e-8)).toBe(true);
    expect(isDecimalMultiple(-7.5, 2.5)).toBe(true);
  });

  it("is what a tool's schema checks arguments with, in both drafts, saying what it wants", () => {
    for (const $schema of ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"]) {
      const check = jsonSchemaCheck({ $schema, type: "object", properties: { price: { type: "number", multipleOf: 0.01 } } });
      expect(check({ price: 19.99 }).ok).toBe(true);
      expect(check({ price: 19.995 })).toEqual({ ok: false, problems: "price: must be multiple of 0.01" });
    }
  });
});
