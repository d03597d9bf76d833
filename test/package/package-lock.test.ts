// `npm install` in a fresh clone leaves `git status` clean (issue 30 §1): the lock's entry for
// the package itself says what package.json says, so npm has nothing to rewrite.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

const read = (name: string) => JSON.parse(readFileSync(join(repoRoot, name), "utf8")) as Record<string, unknown>;

describe("package-lock.json", () => {
  it("is in step with package.json: the same dependencies, peers and their optional marks", () => {
    const manifest = read("package.json");
    const root = (read("package-lock.json").packages as Record<string, Record<string, unknown>>)[""]!;
    for (const field of [
      "dependencies",
      "devDependencies",
      "peerDependencies",
      "peerDependenciesMeta",
      "optionalDependencies",
      "engines",
    ]) {
      expect(root[field], field).toEqual(manifest[field]);
    }
    expect(root.version).toBe(manifest.version);
  });
});
