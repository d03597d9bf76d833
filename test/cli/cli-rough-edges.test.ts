// The command's rough edges (issue 30 §5): a reader that closes the pipe early ends the command
// quietly; a run not found names the store's absolute path and how to name another.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { cli } from "../helpers/run-cli.js";
import { repoRoot } from "../helpers/paths.js";

const main = join(repoRoot, "src", "cli", "main.ts");

describe("a tools module that fails to load", () => {
  it("says where: file:line:column and a short code frame, for a throw and for a syntax error", () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-tools-"));
    const plan = join(dir, "plan.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "t", tool: "x", args: {} }] }));
    const throwing = join(dir, "throwing.mjs");
    writeFileSync(throwing, 'const ready = false;\nif (!ready) throw new Error("the API key is missing");\nexport const tools = [];\n');
    // A process of its own: the way Node itself loads the module (not the test runner's loader).
    const validate = (tools: string) =>
      spawnSync(process.execPath, ["--import", "tsx", main, "validate", plan, "--tools", tools], { encoding: "utf8" });
    const thrown = { err: validate(throwing).stderr };
    expect(thrown.err).toContain(`cannot load tools from ${throwing}: the API key is missing`);
    expect(thrown.err).toContain(`at ${throwing}:2:`);
    expect(thrown.err).toContain('>    2 | if (!ready) throw new Error("the API key is missing");');
    const broken = join(dir, "broken.mjs");
    writeFileSync(broken, "export const tools = [\n  1,,, )\n];\n");
    const syntax = { err: validate(broken).stderr };
    expect(syntax.err).toContain(`cannot load tools from ${broken}: Unexpected token ')'`);
    expect(syntax.err).toContain(`at ${broken}:2:8`);
  });

  it("keeps the compiler's message, file and line for a syntax error in a TypeScript module (tsx's loader loses them)", () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-ts-syntax-"));
    const plan = join(dir, "plan.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "t", tool: "x", args: {} }] }));
    const broken = join(dir, "tools.ts");
    writeFileSync(broken, "export const tools = [];\nconst limit: = 3;\n");
    // From the source under tsx, and built under plain node as a user runs it (where tsx's loader
    // answered with Node's "Cannot require() ES Module … in a cycle", naming nothing of the module).
    for (const command of [["--import", "tsx", main], [join(repoRoot, "dist", "cli", "main.js")]]) {
      const { stderr } = spawnSync(process.execPath, [...command, "validate", plan, "--tools", broken], { encoding: "utf8" });
      expect(stderr).toContain(`cannot load tools from ${broken}: Unexpected "="`);
      expect(stderr).toContain(`at ${broken}:2:14`);
      expect(stderr).toContain(">    2 | const limit: = 3;");
    }
  });
});

describe("a tools module in TypeScript", () => {
  it("loads .ts and .mts with types in them, by Node itself where it strips types (22.18+), else through tsx", () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-ts-tools-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const repo = repoRoot;
    const source = [
      `import { z } from ${JSON.stringify(join(repo, "node_modules", "zod", "index.js"))};`,
      `import { defineTool } from ${JSON.stringify(join(repo, "dist", "index.js"))};`,
      "interface Doubled { value: number }",
      "const double = (value: number): number => value * 2;",
      'export const tools = [defineTool({ name: "double", description: "doubles", input: z.object({ value: z.number() }), execute: ({ value }: Doubled) => double(value) })];',
    ].join("\n");
    writeFileSync(join(dir, "plan.json"), JSON.stringify({ steps: [{ id: 1, task: "t", tool: "double", args: { value: 21 } }] }));
    for (const file of ["tools.ts", "tools.mts"]) {
      writeFileSync(join(dir, file), source);
      // The built command under plain node, as a user runs it: no loader of the test runner's.
      const ran = spawnSync(process.execPath, [join(repo, "dist", "cli", "main.js"), "run", "plan.json", "--tools", file, "--no-store"], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(ran.stderr).toBe("");
      expect(ran.stdout).toContain("output: 42");
    }
  });
});

describe("planloop on a closed pipe and a missing run", () => {
  it("runs list | head -1 prints one line and no stack trace", () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-pipe-")), "runs.sqlite");
    sqliteStore({ path }).close();
    const db = new Database(path);
    const insert = db.prepare(
      "INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at) VALUES (?, 'executePlan', 'running', ?, ?)",
    );
    db.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) insert.run(`run-${index}`, index, index);
    })();
    db.close();
    const piped = spawnSync(
      "sh",
      ["-c", `"${process.execPath}" --import tsx "${main}" runs list --limit 5000 --store "sqlite:${path}" | head -1`],
      {
        encoding: "utf8",
      },
    );
    expect(piped.stdout.trim().split("\n")).toHaveLength(1);
    expect(piped.stderr).not.toMatch(/EPIPE|Error/);
  });

  it("a run not found names the store by its absolute path, and --store / PLANLOOP_STORE", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-where-")), "runs.sqlite");
    sqliteStore({ path }).close();
    const shown = await cli("runs", "show", "nope", "--store", `sqlite:${relative(process.cwd(), path)}`);
    expect(shown.code).not.toBe(0);
    expect(shown.err).toContain(
      `there is no run "nope" in sqlite:${path}; name the store the run was kept in with --store or PLANLOOP_STORE`,
    );
  });
});

describe("a store named wrong (issue 57)", () => {
  it("a typo in a new store's name, or a store to read that is not there, is refused with the path and what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-typo-"));
    const kept = join(dir, "runs.sqlite");
    const store = sqliteStore({ path: kept });
    await store.close();
    const typo = await cli("runs", "list", "--store", `sqlite:${join(dir, "runs.sqlit")}`);
    expect(typo.code).not.toBe(0);
    expect(typo.err).toContain(`no store at ${join(dir, "runs.sqlit")}`);
    const plan = join(dir, "plan.json");
    writeFileSync(plan, JSON.stringify({ steps: [{ id: 1, task: "double", tool: "double", args: { value: 2 } }] }));
    const tools = join(repoRoot, "test", "fixtures", "plan-tools.ts");
    const run = await cli("run", plan, "--tools", tools, "--store", `sqlite:${join(dir, "runs.sqlit")}`);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain("a new store's name ends in .sqlite or .db — a typo?");
    // An existing store is read whatever its name; a new one ending in .sqlite is made.
    expect((await cli("runs", "list", "--store", `sqlite:${kept}`)).code).toBe(0);
    expect((await cli("run", plan, "--tools", tools, "--store", `sqlite:${join(dir, "new.sqlite")}`)).code).toBe(0);
  });

  it("sqliteStore in a folder that does not exist says which folder, not ENOENT", () => {
    const missing = join(tmpdir(), "planloop-no-such-folder", "deeper", "runs.sqlite");
    expect(() => sqliteStore({ path: missing })).toThrow(/the folder .*deeper does not exist: create it/);
  });
});

describe("a port in use (issue 57)", () => {
  it("planloop serve and planloop ui say the port is in use and what to do, not a raw EADDRINUSE", async () => {
    const { createServer } = await import("node:net");
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = String((holder.address() as { port: number }).port);
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-port-")), "runs.sqlite")}`;
    try {
      for (const command of [["serve", "--tools", join(repoRoot, "test", "fixtures", "plan-tools.ts")], ["ui"]]) {
        const answer = await cli(...command, "--port", port, "--store", store);
        expect(answer.code).toBe(2);
        expect(answer.err).toContain(`port ${port} on 127.0.0.1 is in use`);
        expect(answer.err).toContain("--port 0 for a free one");
        expect(answer.err).not.toContain("unexpected error");
      }
    } finally {
      holder.close();
    }
  });
});
