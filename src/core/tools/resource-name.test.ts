import { describe, expect, it } from "vitest";
import { resourceName } from "./resource-name.js";

describe("resourceName", () => {
  it("makes names that are one key in UTF-8 one name", () => {
    expect(resourceName("row:\ud800")).toBe(resourceName("row:\udbff"));
    expect(resourceName("row:\ud800")).toBe("row:\ufffd");
    expect(Buffer.from(resourceName("a\udc00b")).equals(Buffer.from("a\udc00b"))).toBe(true);
  });

  it("keeps well-formed names, surrogate pairs included", () => {
    for (const name of ["table:orders", "a\ud83d\ude00b", "", "\u0000"]) expect(resourceName(name)).toBe(name);
    expect(resourceName("\ude00\ud83d")).toBe("\ufffd\ufffd");
  });

  it("agrees with String.prototype.toWellFormed", () => {
    const toWellFormed = (String.prototype as unknown as { toWellFormed(this: string): string }).toWellFormed;
    for (const name of ["x\ud800", "\udfff", "\ud800\udc00", "a\ud800\ud800\udc00"])
      expect(resourceName(name)).toBe(toWellFormed.call(name));
  });
});
