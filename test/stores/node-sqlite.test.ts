// The embedded store on node:sqlite (issue 30 §3): where Node has it (22.5 and later), the
// SQLite store needs no native build. The same conformance suite as better-sqlite3's, and each
// driver reads the other's file. On Node 20 this file's suite skips; .ci/run runs it on Node 22 and 24.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "planloop/sqlite";
import { builtinSqlite } from "../../src/stores/sqlite/node-sqlite.js";
import { storeConformance } from "planloop/testing";
import { repoRoot } from "../helpers/paths.js";

const has = builtinSqlite() !== undefined;
const file = () => join(mkdtempSync(join(tmpdir(), "planloop-node-sqlite-")), "runs.sqlite");

storeConformance("sqliteStore on node:sqlite", () => sqliteStore({ path: file(), driver: "node:sqlite" }), {
  describe: has ? describe : describe.skip,
  it,
  expect,
});

describe.skipIf(!has)("node:sqlite and better-sqlite3 files", () => {
  it("is the default driver where Node has it; a run it kept reads back, read-only too", () => {
    const path = file();
    const store = sqliteStore({ path });
    store.createRun({ runId: "r", entry: "executePlan", at: 1 });
    store.append("r", [{ kind: "plan", version: 1, plan: { steps: [] } }], 2);
    store.finishRun("r", { status: "completed" }, 3);
    store.close();
    const reader = sqliteStore({ path, readonly: true, driver: "node:sqlite" });
    expect(reader.getRun("r")).toMatchObject({ status: "finished", result: { status: "completed" }, journal: [{ kind: "plan" }] });
    expect(() => reader.createRun({ runId: "s", entry: "runAgent", at: 4 })).toThrow();
    reader.close();
  });

  it("each driver reads the file the other wrote (one after the other: never both open in one process)", () => {
    const path = file();
    const written = sqliteStore({ path, driver: "node:sqlite" });
    written.createRun({ runId: "a", entry: "runAgent", at: 1 });
    written.finishRun("a", { status: "completed", output: "from node:sqlite" }, 2);
    written.close();
    const other = sqliteStore({ path, driver: "better-sqlite3" });
    expect(other.getRun("a")).toMatchObject({ result: { output: "from node:sqlite" } });
    other.createRun({ runId: "b", entry: "runAgent", at: 3 });
    other.finishRun("b", { status: "completed", output: "from better-sqlite3" }, 4);
    other.close();
    const back = sqliteStore({ path, driver: "node:sqlite" });
    expect(back.getRun("b")).toMatchObject({ result: { output: "from better-sqlite3" } });
    back.close();
  });

  // Node 20 (this repo's own) reads a file node:sqlite wrote, with better-sqlite3, in a process of its own.
  const node20 = process.env.PLANLOOP_NODE20;
  it.skipIf(node20 === undefined || !existsSync(node20))("writes a file better-sqlite3 on Node 20 reads", () => {
    const path = file();
    const store = sqliteStore({ path });
    store.createRun({ runId: "shared", entry: "runAgent", at: 1 });
    store.finishRun("shared", { status: "completed", output: "from node:sqlite" }, 2);
    store.close();
    const read = spawnSync(
      node20!,
      [
        "-e",
        `const D = require("better-sqlite3"); const db = new D(${JSON.stringify(path)}); console.log(db.prepare("SELECT result FROM planloop_runs WHERE run_id = 'shared'").get().result);`,
      ],
      { encoding: "utf8", cwd: repoRoot },
    );
    expect(read.stdout).toContain("from node:sqlite");
  });
});

describe.skipIf(has)("on a Node without node:sqlite", () => {
  it("asking for it is a clear error; better-sqlite3 is the default", () => {
    expect(() => sqliteStore({ path: file(), driver: "node:sqlite" })).toThrow(/has no node:sqlite; it came in Node 22.5/);
    expect(() => sqliteStore({ path: file(), driver: "sqlite3" as never })).toThrow(/driver must be "node:sqlite" or "better-sqlite3"/);
  });
});
