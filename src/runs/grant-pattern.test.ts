import { describe, expect, it } from "vitest";
import { argumentsMatch, grantPattern, sameJson } from "./grant-pattern.js";
import { grantFor, type StandingGrant } from "./standing-grants.js";

const grant = (args: Record<string, unknown> | undefined): StandingGrant => ({
  tool: "pay",
  args,
  scope: "run",
  within: "r",
  expiresAt: Infinity,
  by: "alice",
  at: 0,
});

describe("grant patterns", () => {
  it("keep every key as given, `__proto__` included, in objects without a prototype", () => {
    const pattern = grantPattern(JSON.parse('{"__proto__":{"payee":"x"},"constructor":1}'));
    expect(Object.getPrototypeOf(pattern)).toBeNull();
    expect(JSON.stringify(pattern)).toBe('{"__proto__":{"payee":"x"},"constructor":1}');
    expect(argumentsMatch(pattern, { payee: "x", constructor: 1 })).toBe(false);
    expect(argumentsMatch(pattern, JSON.parse('{"__proto__":{"payee":"x"},"constructor":1,"amount":9000}'))).toBe(true);
  });

  it("refuse what cannot be kept as JSON: not an object, an array, a function, a number JSON has not", () => {
    for (const given of [[1], "x", null, { at: new Date(0) }, { f: () => 1 }, { n: Number.NaN }, { big: 1n }])
      expect(() => grantPattern(given)).toThrow(/grant\.args/);
  });

  it("compare values as JSON of the same type, objects by their own keys", () => {
    expect(sameJson(1, 1.0)).toBe(true);
    expect(sameJson("1", 1)).toBe(false);
    expect(sameJson({ 0: "a" }, ["a"])).toBe(false);
    expect(sameJson(["a"], { 0: "a" })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson(Object.assign(Object.create(null) as object, { a: [1, { b: null }] }), { a: [1, { b: null }] })).toBe(true);
  });

  it("an object pattern never matches arguments that are an array", () => {
    expect(grantFor([grant({ 0: "x" })], { kind: "approval", name: "pay", arguments: ["x"] })).toBeUndefined();
    expect(grantFor([grant({ 0: "x" })], { kind: "approval", name: "pay", arguments: { 0: "x" } })).toBeDefined();
    expect(grantFor([grant(undefined)], { kind: "approval", name: "pay", arguments: { amount: 1 } })).toBeDefined();
    expect(grantFor([grant(undefined)], { kind: "question", name: "pay" })).toBeUndefined();
  });
});
