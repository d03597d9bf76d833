import { describe, expect, it } from "vitest";
import { storedTenant } from "./sqlite-limit-store.js";

// node:sqlite reads a text back cut at its first NUL: a claim's tenant is stored without one.
describe("a tenant's name as a SQLite claim keeps it", () => {
  it("keeps an ordinary name as it is", () => {
    for (const name of ["client:reports", "", "__proto__", "é".repeat(50), "schedule:a b\tc\n"]) expect(storedTenant(name)).toBe(name);
  });

  it("stores a name with a NUL, or one that starts with the mark, without a NUL and one to one", () => {
    const names = ["x\u0000y", "x", "x\u0000", "\u0000", '#json:"x\\u0000y"', "#json:", "#json:x"];
    const stored = names.map(storedTenant);
    for (const each of stored) expect(each).not.toContain("\u0000");
    expect(new Set(stored).size).toBe(names.length);
    expect(storedTenant("x\u0000y")).not.toBe(storedTenant("x"));
  });
});
