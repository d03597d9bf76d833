import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

// A limit shorter than the suite's own is a limit the machine's load decides: a first `npm test`
// on a busy machine failed on tests that pass alone in a few seconds.
describe("the suite's time limits", () => {
  it("no test or hook sets a limit shorter than the suite's", () => {
    const suiteLimit = config.test?.testTimeout ?? 0;
    expect(suiteLimit).toBeGreaterThanOrEqual(120_000);
    expect(config.test?.hookTimeout).toBe(suiteLimit);
    const shorter: string[] = [];
    for (const file of [...testFiles(join(root, "src")), ...testFiles(join(root, "test"))]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          // `}, 60_000);` closing an it/beforeAll, or `it("…", { timeout: 60_000 }, …)`.
          const limit = line.match(/^\s*\}, (\d+)_000\);$/)?.[1] ?? line.match(/^\s*(?:it|test)\(.*\{ timeout: (\d+)_000 \}/)?.[1];
          if (limit !== undefined && Number(limit) * 1000 < suiteLimit) shorter.push(`${relative(root, file)}:${index + 1} (${limit} s)`);
        });
    }
    expect(shorter).toEqual([]);
  });
});
