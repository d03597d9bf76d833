// The checkpoint stores against one contract, and what is particular to each.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { memoryStore, type RunSummary } from "planloop";
import { schemaVersion, sqliteStore } from "planloop/sqlite";
import { migrate } from "../../src/stores/sqlite/migrations.js";
import { storeConformance } from "planloop/testing";

storeConformance("memoryStore", () => memoryStore(), { describe, it, expect });
storeConformance("sqliteStore", () => sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-store-")), "runs.sqlite") }), {
  describe,
  it,
  expect,
});

describe("sqliteStore", () => {
  it("creates its file private to its owner, and SQLite's -wal and -shm beside it the same; the CLI's folder too", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "planloop-private-")), "nested", "runs");
    const { storeFromFlag } = await import("../../src/cli/store-option.js");
    const path = join(folder, "runs.sqlite");
    const store = storeFromFlag(`sqlite:${path}`);
    store.createRun({ runId: "r", entry: "executePlan", at: 1 });
    store.append("r", [{ kind: "paused", state: { secret: "x" } }], 2);
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(mode(folder)).toBe(0o700);
    await store.close();
  });

  const file = () => join(mkdtempSync(join(tmpdir(), "planloop-store-")), "runs.sqlite");

  it("batch: a run's writes as one commit, all kept or none; its entry numbers stay without a gap after one is undone", () => {
    const store = sqliteStore({ path: file() });
    const token = () => (store.acquireLease("r", { owner: "me", ttlMs: 60_000, at: 1 }) as { token: number }).token;
    store.batch!(() => {
      store.createRun({ runId: "r", entry: "executePlan", at: 1 });
      store.setValue("how:r", { plan: 1 });
    });
    expect(store.getValue("how:r")).toEqual({ plan: 1 });
    const held = token();
    store.append("r", [{ kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: "k" }], 2, held);
    // A write refused inside (a stale token) undoes the batch: the entry before it is not kept.
    expect(() =>
      store.batch!(() => {
        store.append("r", [{ kind: "step-end", stepKey: "1", record: {} } as never], 3, held);
        store.finishRun("r", { status: "completed" }, 3, held + 1);
      }),
    ).toThrow(/no longer this process's/);
    expect((store.getRun("r") as { status: string; journal: unknown[] }).journal).toHaveLength(1);
    store.batch!(() => {
      store.append("r", [{ kind: "step-end", stepKey: "1", record: {} } as never], 4, held);
      store.finishRun("r", { status: "completed" }, 4, held);
    });
    const run = store.getRun("r") as { status: string; journal: unknown[] };
    expect(run.status).toBe("finished");
    expect(run.journal).toHaveLength(2);
    // The finished run's lease was given up with it: anyone takes it at once.
    expect(store.acquireLease("r", { owner: "other", ttlMs: 60_000, at: 5 })).toMatchObject({ kind: "acquired" });
    void store.close();
  });

  it("keeps runs across closing and opening the file, in WAL mode", () => {
    const path = file();
    const first = sqliteStore({ path });
    first.createRun({ runId: "r", entry: "executePlan", at: 1 });
    first.append("r", [{ kind: "step-start", stepKey: "1", attempt: 1, idempotencyKey: "k" }], 2);
    first.close();
    const again = sqliteStore({ path });
    expect(again.getRun("r")).toMatchObject({ status: "running", journal: [{ kind: "step-start", stepKey: "1" }] });
    again.close();
    const raw = new Database(path);
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.prepare("SELECT version FROM planloop_schema").get()).toEqual({ version: schemaVersion });
    raw.close();
  });

  it("brings a database made by an older planloop up to date, and refuses one made by a newer one", () => {
    const older = file();
    const raw = new Database(older);
    raw.exec("CREATE TABLE planloop_schema (version INTEGER NOT NULL); INSERT INTO planloop_schema VALUES (0);");
    raw.close();
    const store = sqliteStore({ path: older });
    expect(store.createRun({ runId: "r", entry: "runAgent", at: 1 })).toBe("created");
    store.setValue("k", { v: 1 }); // the table of schema version 2
    expect(store.getValue("k")).toEqual({ v: 1 });
    store.close();

    const newer = file();
    const future = new Database(newer);
    future.exec(`CREATE TABLE planloop_schema (version INTEGER NOT NULL); INSERT INTO planloop_schema VALUES (${schemaVersion + 1});`);
    future.close();
    expect(() => sqliteStore({ path: newer })).toThrow(/newer than this planloop's/);
  });

  it("opens a store written at schema version 3: kept-in runs and finished runs' outcomes are filled in for listing", () => {
    const path = file();
    const raw = new Database(path);
    migrate(raw, 3);
    const insert = raw.prepare(
      "INSERT INTO planloop_runs (run_id, entry, status, result, created_at, updated_at) VALUES (?, 'planAndExecute', ?, ?, ?, ?)",
    );
    insert.run("old", "finished", JSON.stringify({ status: "failed", taskType: "report", usage: { costUsd: 1 } }), 1, 2);
    insert.run("old/plan:1", "finished", JSON.stringify({ status: "failed" }), 2, 2);
    insert.run("old/plan:1/step", "running", null, 3, 3);
    insert.run("lone/x", "running", null, 4, 4);
    raw.close();
    const store = sqliteStore({ path });
    expect(store.listRuns({ topLevel: true })).toMatchObject([
      { runId: "lone/x" },
      { runId: "old", outcome: { status: "failed", taskType: "report", usage: { costUsd: 1 } } },
    ]);
    expect((store.listRuns({ within: "old" }) as RunSummary[]).map((row) => [row.runId, row.keptIn])).toEqual([
      ["old/plan:1/step", "old/plan:1"],
      ["old/plan:1", "old"],
    ]);
    store.close();
  });

  it("opens a file for reading only: runs list and read back, nothing is written, an old schema is not migrated", () => {
    const path = file();
    const writer = sqliteStore({ path });
    writer.createRun({ runId: "r", entry: "runAgent", at: 1 });
    writer.finishRun("r", { status: "completed" }, 2);
    writer.close();
    const reader = sqliteStore({ path, readonly: true });
    expect((reader.listRuns() as RunSummary[]).map((row) => row.runId)).toEqual(["r"]);
    expect(reader.getRun("r")).toMatchObject({ result: { status: "completed" } });
    expect(() => reader.createRun({ runId: "s", entry: "runAgent", at: 3 })).toThrow(/readonly/);
    reader.close();
    expect(() => sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-ro-")), "none.sqlite"), readonly: true })).toThrow(
      /cannot be opened for reading/,
    );
    const old = file();
    const raw = new Database(old);
    migrate(raw, 2);
    raw.close();
    expect(() => sqliteStore({ path: old, readonly: true })).toThrow(/schema version 2 .*open it once with write access/);
  });

  it("opens a store written at schema version 1: its runs read back, and the values table is added", () => {
    const path = file();
    const raw = new Database(path);
    migrate(raw, 1);
    raw
      .prepare(
        "INSERT INTO planloop_runs (run_id, entry, status, result, created_at, updated_at) VALUES ('old', 'executePlan', 'finished', '{\"status\":\"completed\"}', 1, 2)",
      )
      .run();
    raw.close();
    const store = sqliteStore({ path });
    expect(store.getRun("old")).toMatchObject({ status: "finished", result: { status: "completed" } });
    store.setValue("planloop/latencies", { kind: "planloop/latencies", calls: {}, tools: {} });
    expect(store.getValue("planloop/latencies")).toMatchObject({ kind: "planloop/latencies" });
    store.close();
  });

  it("opens a store written before origins were kept: its runs have none (no schedule's grant reaches them), new ones keep theirs", () => {
    const path = file();
    const raw = new Database(path);
    migrate(raw, schemaVersion - 2);
    raw
      .prepare(
        "INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at) VALUES ('weekly@old', 'executePlan', 'running', 1, 1)",
      )
      .run();
    raw.close();
    const store = sqliteStore({ path });
    expect(store.getRun("weekly@old")).not.toHaveProperty("origin");
    store.createRun({ runId: "weekly@new", entry: "executePlan", at: 2, origin: { schedule: { name: "weekly", fireAt: 2 } } });
    expect((store.listRuns({ schedule: "weekly" }) as RunSummary[]).map((row) => row.runId)).toEqual(["weekly@new"]);
    store.close();
  });

  it("opens a store written when an event's id was its key: its events read back by number, and new numbers come after every one given", async () => {
    const path = file();
    const raw = new Database(path);
    migrate(raw, schemaVersion - 2);
    const insert = raw.prepare("INSERT INTO planloop_events (id, name, data, run_id, at, expires_at) VALUES (?, ?, '{}', ?, 1, 1000)");
    insert.run("42", "export-ready", null);
    insert.run("7", "export-ready", "run-a");
    insert.run("pruned", "export-ready", null);
    raw.prepare("DELETE FROM planloop_events WHERE id = 'pruned'").run();
    raw.close();
    const store = sqliteStore({ path });
    const log = store.events!;
    expect(await log.lastSeq()).toBe(3);
    expect((await log.read({ name: "export-ready", runId: "run-a", afterSeq: 0, at: 2 })).map((event) => [event.seq, event.id])).toEqual([
      [1, "42"],
      [2, "7"],
    ]);
    expect(await log.put({ id: "42", name: "export-ready", data: {}, at: 2, expiresAt: 1000 })).toEqual({ seq: 1, duplicate: true });
    // A number is never given twice (one a conflicting insert drew stays unused): the new one comes after the old ones.
    const paid = await log.put({ id: "42", name: "invoice-paid", data: {}, at: 2, expiresAt: 1000 });
    expect(paid.seq).toBeGreaterThan(3);
    expect(paid).toMatchObject({ duplicate: false });
    expect(await log.put({ id: "42", name: "invoice-paid", data: {}, at: 2, expiresAt: 1000 })).toEqual({ seq: paid.seq, duplicate: true });
    expect(await log.put({ id: "7", name: "export-ready", data: {}, runId: "run-b", at: 2, expiresAt: 1000 })).toMatchObject({
      duplicate: false,
    });
    store.close();
  });

  it("says what it needs without a path", () => {
    expect(() => sqliteStore({} as never)).toThrow(/sqliteStore needs \{ path \}/);
  });
});
