// A damaged or unavailable store is a clear error that names the store and the run and says
// what to do (issue 27 §4), not a raw SyntaxError, an undefined result or a driver's error.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, StoreError, type CheckpointStore } from "planloop";
import { postgresStore } from "planloop/postgres";
import { sqliteStore } from "planloop/sqlite";
import { openSqliteFile } from "../helpers/sqlite-file.js";

const echo = defineTool({ name: "echo", description: "echo", input: z.object({ n: z.number() }), execute: ({ n }) => n });
const plan = { steps: [{ id: 1, task: "a", tool: "echo", args: { n: 25 } }] };
const gated = defineTool({ name: "gated", description: "gated", input: z.object({}), needsApproval: true, execute: () => "done" });
const pausing = {
  steps: [
    { id: 1, task: "a", tool: "echo", args: { n: 25 } },
    { id: 2, task: "b", tool: "gated", args: {}, depends_on: [1] },
  ],
};

function sqlitePath(): string {
  return join(mkdtempSync(join(tmpdir(), "planloop-damaged-")), "runs.sqlite");
}

describe("a damaged or unavailable store", () => {
  it("a journal row that is not JSON: a StoreError naming the file, the run and the entry", async () => {
    const path = sqlitePath();
    const store = sqliteStore({ path });
    expect((await executePlan({ plan: pausing, tools: [echo, gated], store, runId: "r1" })).status).toBe("waiting");
    store.close();
    const db = openSqliteFile(path);
    db.prepare("UPDATE planloop_journal SET entry = 'not json {' WHERE run_id = 'r1' AND seq = 2").run();
    db.close();
    const reopened = sqliteStore({ path });
    const error = await executePlan({ plan: pausing, tools: [echo, gated], store: reopened, runId: "r1" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(new RegExp(`^${path.replaceAll("/", "\\/")} \\(run "r1"\\): journal entry 2 is not JSON`));
    reopened.close();
  });

  it("a run marked finished with no result: a StoreError, not an undefined result", async () => {
    const path = sqlitePath();
    const store = sqliteStore({ path });
    await executePlan({ plan, tools: [echo], store, runId: "r2" });
    store.close();
    const db = openSqliteFile(path);
    db.prepare("UPDATE planloop_runs SET result = NULL WHERE run_id = 'r2'").run();
    db.close();
    const reopened = sqliteStore({ path });
    await expect(executePlan({ plan, tools: [echo], store: reopened, runId: "r2" })).rejects.toThrow(
      /\(run "r2"\): the run is marked finished but its result is missing/,
    );
    reopened.close();
  });

  it("a write that fails (the disk full): a StoreError that says the run continues by id", async () => {
    const base = memoryStore();
    let full = false;
    const filling: CheckpointStore = {
      ...base,
      append: (...args) => {
        if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
        return base.append(...args);
      },
    };
    const tool = defineTool({ name: "fill", description: "fills", input: z.object({}), execute: () => ((full = true), "x") });
    const error = await executePlan({
      plan: { steps: [{ id: 1, task: "a", tool: "fill", args: {} }] },
      tools: [tool],
      store: filling,
      runId: "r3",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe(
      'the memory store (run "r3"): a checkpoint could not be written (database or disk is full); continue the run by id once the store is back (what was not written runs again)',
    );
  });

  it("a Postgres server that is not there: a StoreError naming it without its password", async () => {
    const store = postgresStore({ connectionString: "postgres://planloop:hunter2@127.0.0.1:1/none" });
    const error = await executePlan({ plan, tools: [echo], store, runId: "r4" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(
      /^postgres:\/\/planloop:\*\*\*@127\.0\.0\.1:1\/none \(run "r4"\): the run could not be opened/,
    );
    expect((error as Error).message).not.toContain("hunter2");
    await store.close();
  });
});
