// docs/api.md names every export of the package root, under the heading of its group in src/index.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";

it("docs/api.md lists every name the root exports, in the group src/index.ts puts it in", () => {
  const index = readFileSync(join(repoRoot, "src", "index.ts"), "utf8");
  const doc = readFileSync(join(repoRoot, "docs", "api.md"), "utf8");
  const groups = index.split(/\n\/\/ /).slice(1);
  let listed = 0;
  for (const group of groups) {
    const title = group.split("\n")[0]!;
    const names = [...group.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
      match[1]!
        .split(",")
        .map((name) =>
          name
            .trim()
            .replace(/^type /, "")
            .split(" as ")
            .pop()!
            .trim(),
        )
        .filter(Boolean),
    );
    if (names.length === 0) continue;
    const section = doc.split(`## ${title}\n`)[1]?.split("\n## ")[0];
    expect(section, `docs/api.md has a section "${title}"`).toBeDefined();
    for (const name of names) expect(section, `${title}: ${name}`).toContain(`\`${name}\``);
    listed += names.length;
  }
  expect(listed).toBeGreaterThan(150);
});
