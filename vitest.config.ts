import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// .ci/run also runs the AI SDK tests on Node 24 against `ai` 7, installed in a folder of its own.
const aiSdk = process.env.PLANLOOP_AI_SDK_DIR;
const aiSdkAliases = aiSdk
  ? [
      { find: /^ai$/, replacement: join(aiSdk, "node_modules", "ai", "dist", "index.js") },
      { find: /^ai\/test$/, replacement: join(aiSdk, "node_modules", "ai", "dist", "test", "index.js") },
    ]
  : [];

export default defineConfig({
  resolve: {
    // Tests import "planloop" exactly as a user would; here it resolves to the source.
    alias: [
      { find: /^planloop\/testing$/, replacement: source("./src/testing/index.ts") },
      { find: /^planloop\/evals$/, replacement: source("./src/evals/index.ts") },
      { find: /^planloop\/demo$/, replacement: source("./src/demo/index.ts") },
      { find: /^planloop\/sqlite$/, replacement: source("./src/stores/sqlite/index.ts") },
      { find: /^planloop\/postgres$/, replacement: source("./src/stores/postgres/index.ts") },
      { find: /^planloop\/bullmq$/, replacement: source("./src/workers/index.ts") },
      { find: /^planloop\/mcp$/, replacement: source("./src/mcp/index.ts") },
      { find: /^planloop\/ui$/, replacement: source("./src/ui/index.ts") },
      { find: /^planloop\/client$/, replacement: source("./src/client/index.ts") },
      { find: /^planloop$/, replacement: source("./src/index.ts") },
      ...aiSdkAliases,
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Very large inputs and real-time bounds take what the machine gives them: npm run test:stress.
    exclude: ["**/node_modules/**", "**/*.stress.test.ts"],
    // Many tests start processes (tsx, a server, a database) or run the compiler: one that takes 7 s
    // on an idle two-core machine took 91 s with the machine busy. Logic tests run on fake clocks and
    // never wait for time, so one generous limit for every test and hook costs nothing until
    // something hangs; no test sets a shorter one of its own.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where most
    // test files spend their time waiting for a process, a server or a database. Two keep both
    // cores busy (the whole suite: see the README for how long it takes).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The command records runs by default: in tests, into a file of their own, not ./.planloop.
    env: { PLANLOOP_STORE: `sqlite:${join(tmpdir(), `planloop-test-${process.pid}`, "runs.sqlite")}` },
    // CI also writes a JSON report, from which .ci/run prints its "N passed, N failed" line.
    reporters: process.env.CI ? ["default", ["json", { outputFile: process.env.VITEST_REPORT || ".vitest-report.json" }]] : ["default"],
  },
});
