import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import "planloop" exactly as a user would; here it resolves to the source.
    alias: [
      { find: /^planloop\/testing$/, replacement: source("./src/testing/index.ts") },
      { find: /^planloop\/demo$/, replacement: source("./src/demo/index.ts") },
      { find: /^planloop\/sqlite$/, replacement: source("./src/stores/sqlite/index.ts") },
      { find: /^planloop\/postgres$/, replacement: source("./src/stores/postgres/index.ts") },
      { find: /^planloop\/bullmq$/, replacement: source("./src/workers/index.ts") },
      { find: /^planloop\/mcp$/, replacement: source("./src/mcp/index.ts") },
      { find: /^planloop$/, replacement: source("./src/index.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The command records runs by default: in tests, into a file of their own, not ./.planloop.
    env: { PLANLOOP_STORE: `sqlite:${join(tmpdir(), `planloop-test-${process.pid}`, "runs.sqlite")}` },
    // CI also writes a JSON report, from which .ci/run prints its "N passed, N failed" line.
    reporters: process.env.CI ? ["default", ["json", { outputFile: process.env.VITEST_REPORT ?? ".vitest-report.json" }]] : ["default"],
  },
});
