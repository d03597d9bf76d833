import { describe, expect, it } from "vitest";
import { loadOptionalPackage, MissingPackageError } from "./optional-package.js";

describe("loadOptionalPackage", () => {
  it("loads a package that is installed", () => {
    const tokenizer = loadOptionalPackage<{ countTokens(text: string): number }>({ name: "gpt-tokenizer", neededFor: "token counts" });
    expect(tokenizer.countTokens("hello world")).toBe(2);
  });

  it("names the package to install, in one line, when it is missing", () => {
    const load = () =>
      loadOptionalPackage({ name: "planloop-no-such-driver", neededFor: "planloop/imaginary", install: "planloop-no-such-driver@1" });
    expect(load).toThrow(MissingPackageError);
    expect(load).toThrow('planloop/imaginary needs the package "planloop-no-such-driver": run npm install planloop-no-such-driver@1');
    try {
      load();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain("\n");
    }
  });
});
