import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("ignores key order at every depth", () => {
    expect(canonicalJson({ b: 1, a: { y: [1, 2], x: null } })).toBe(canonicalJson({ a: { x: null, y: [1, 2] }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it("keeps array order and tells different values apart", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
  });

  it("drops undefined properties like JSON does and survives cycles", () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"name":"loop","self":"[Circular]"}');
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson(10n)).toBe('"10"');
  });
});
