import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../core/canonical-json.js";
import { checkSecret, derivedKey, sameSecretText, signValue } from "./keyed-hash.js";

describe("the keyed hash", () => {
  it("signs a label and the value's canonical JSON (key order aside), as every signature planloop stored so far", () => {
    const value = { b: [1, { d: 2, c: 3 }], a: "x" };
    const expected = createHmac("sha256", "a secret of sixteen+").update("planloop/job\n").update(canonicalJson(value)).digest("base64url");
    expect(signValue("a secret of sixteen+", "planloop/job\n", value)).toBe(expected);
    expect(signValue("a secret of sixteen+", "planloop/job\n", { a: "x", b: [1, { c: 3, d: 2 }] })).toBe(expected);
    expect(signValue("a secret of sixteen+", "planloop/result\n", value)).not.toBe(expected);
    expect(signValue("a secret of sixteen+", "", value, "hex")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("derives a key per purpose, compares in constant time, and refuses a short secret", () => {
    expect(derivedKey("s", "one").equals(derivedKey("s", "two"))).toBe(false);
    expect(sameSecretText("abc", "abc")).toBe(true);
    expect(sameSecretText("abd", "abc")).toBe(false);
    expect(sameSecretText("ab", "abc")).toBe(false);
    expect(sameSecretText(undefined, "abc")).toBe(false);
    expect(() => checkSecret("short", "secret")).toThrow("secret must be a string of at least 16 characters");
    expect(() => checkSecret(undefined)).not.toThrow();
  });
});
