// The package as a user gets it: packed, installed into an empty project by an npm that can
// find no compiler, and imported by name.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { builtinSqlite } from "../../src/stores/sqlite/node-sqlite.js";
import { repoRoot } from "../helpers/paths.js";

const run = promisify(execFile);
const repo = repoRoot;
// The npm running the tests (npm test sets npm_execpath); else the one beside this node.
const npmCli = process.env.npm_execpath?.endsWith("npm-cli.js")
  ? process.env.npm_execpath
  : resolve(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");

describe("the packed package", () => {
  it("installs into an empty project with no compiler on PATH, pulls no native driver, and runs executePlan and the CLI", async () => {
    const work = mkdtempSync(join(tmpdir(), "planloop-pack-"));
    // The user's PATH holds node and a shell, nothing else: no cc, make or python for a
    // native build to find.
    const bin = join(work, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    symlinkSync("/bin/sh", join(bin, "sh"));
    const quiet = { npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
    const env = { ...process.env, ...quiet, PATH: bin };
    const npm = (args: string[], cwd: string, environment: NodeJS.ProcessEnv = env) =>
      run(process.execPath, [npmCli, ...args], { cwd, env: environment, maxBuffer: 16 << 20 });

    // dist/ as `npm install` (prepare) built it: packing does not build it again under the
    // feet of tests that run the examples from it.
    await npm(["pack", "--ignore-scripts", "--pack-destination", work], repo, { ...process.env, ...quiet });
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"))!;
    const project = join(work, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
    await npm(["install", "--prefer-offline", join(work, tarball)], project);

    const modules = join(project, "node_modules");
    expect(existsSync(join(modules, "planloop", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(modules, "zod"))).toBe(true); // a peer the user shares with planloop
    for (const optional of [
      "better-sqlite3",
      "pg",
      "bullmq",
      "ioredis",
      "gpt-tokenizer",
      "ai",
      "@modelcontextprotocol/sdk",
      "@opentelemetry/api",
    ])
      expect(existsSync(join(modules, optional))).toBe(false);

    writeFileSync(
      join(project, "main.js"),
      `import { z } from "zod";
import { defineTool, executePlan } from "planloop";
const double = defineTool({ name: "double", description: "doubles", input: z.object({ value: z.number() }), execute: ({ value }) => value * 2 });
const result = await executePlan({ plan: { steps: [{ id: 1, task: "double", tool: "double", args: { value: 21 } }] }, tools: [double] });
console.log(result.status, result.output);
const { sqliteStore } = await import("planloop/sqlite");
try {
  const store = sqliteStore({ path: "runs.sqlite" });
  await store.createRun({ runId: "r", entry: "executePlan", at: 0 });
  console.log("sqlite", (await store.listRuns()).map((run) => run.runId).join(","));
  store.close();
} catch (error) {
  console.log(error.name, error.message);
}
const { postgresStore } = await import("planloop/postgres");
try {
  postgresStore({ connectionString: "postgres://127.0.0.1:1/none" });
} catch (error) {
  console.log(error.name, error.message);
}
const { mcpServerTools } = await import("planloop/mcp");
await mcpServerTools({ command: "none" }).catch((error) => console.log(error.name, error.message));
const { openTelemetry } = await import("planloop");
try {
  openTelemetry();
} catch (error) {
  console.log(error.name, error.message);
}
`,
    );
    const { stdout } = await run(process.execPath, ["main.js"], { cwd: project, env });
    expect(stdout.trim().split("\n")).toEqual([
      "completed 42",
      // Node 22.5+ keeps runs in node:sqlite, with no package to install; Node 20 needs better-sqlite3.
      builtinSqlite() === undefined
        ? 'MissingPackageError planloop/sqlite needs the package "better-sqlite3": run npm install better-sqlite3@12'
        : "sqlite r",
      'MissingPackageError planloop/postgres needs the package "pg": run npm install pg@8',
      'MissingPackageError planloop/mcp (mcpServerTools) needs the package "@modelcontextprotocol/sdk": run npm install @modelcontextprotocol/sdk',
      'MissingPackageError openTelemetry() needs the package "@opentelemetry/api": run npm install @opentelemetry/api',
    ]);
    const version = await run(process.execPath, [join(modules, "planloop", "dist", "cli", "main.js"), "--version"], { cwd: project, env });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 180_000);
});
