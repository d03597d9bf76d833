// The package as a user gets it: packed, installed into an empty project by an npm that can
// find no compiler, and imported by name.
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { builtinSqlite } from "../../src/stores/sqlite/node-sqlite.js";
import { packedProject } from "../helpers/packed-project.js";

const run = promisify(execFile);

describe("the packed package", () => {
  it("installs into an empty project with no compiler on PATH, pulls no native driver, and runs executePlan and the CLI", async () => {
    const { project, env } = await packedProject();

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
  });
});
