import { closeSync, existsSync, openSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { LeaseLostError } from "../../core/errors.js";
import { storeMisuse, type CheckpointStore, type JournalEntry, type RunSummary, type StoredRun } from "../../core/checkpoint-store.js";

import { loadOptionalPackage } from "../../core/optional-package.js";
import { migrate } from "./migrations.js";
import { readStoredJson, summaryOf, type RunRow } from "../run-row.js";

export interface SqliteStoreOptions {
  /**
   * The database file; created on first use readable and writable by its owner only (SQLite
   * gives its -wal and -shm files the same permission). `:memory:` for tests.
   */
  path: string;
}

/**
 * The embedded checkpoint store: one SQLite file (better-sqlite3, an optional peer), in WAL
 * mode so readers do not wait for the writer. A commit survives the process dying; with
 * `synchronous = NORMAL` the last commits before a power loss may not (WAL's usual trade).
 * Writes are synchronous, so checkpoints add microseconds, not event-loop turns.
 *
 * @example
 * import { sqliteStore } from "planloop/sqlite";
 * const store = sqliteStore({ path: ".planloop/runs.sqlite" });
 */
export function sqliteStore(options: SqliteStoreOptions): CheckpointStore {
  if (typeof options?.path !== "string" || options.path === "") throw storeMisuse("sqliteStore needs { path }: the database file");
  const Database = loadOptionalPackage<typeof BetterSqlite3>({
    name: "better-sqlite3",
    neededFor: "planloop/sqlite",
    install: "better-sqlite3@12",
  });
  createPrivately(options.path);
  const db = new Database(options.path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  const statements = {
    insertRun: db.prepare(
      "INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at) VALUES (?, ?, 'running', ?, ?) ON CONFLICT DO NOTHING",
    ),
    run: db.prepare<[string], RunRow>("SELECT * FROM planloop_runs WHERE run_id = ?"),
    journal: db.prepare<[string], { entry: string }>("SELECT entry FROM planloop_journal WHERE run_id = ? ORDER BY seq"),
    lastSeq: db.prepare<[string], { seq: number | null }>("SELECT MAX(seq) AS seq FROM planloop_journal WHERE run_id = ?"),
    insertEntry: db.prepare("INSERT INTO planloop_journal (run_id, seq, entry) VALUES (?, ?, ?)"),
    // A write under a token is made only while that token is the run's lease (fencing).
    touchRunning: db.prepare<[number, string, number | null, number | null]>(
      "UPDATE planloop_runs SET updated_at = ? WHERE run_id = ? AND status = 'running' AND (? IS NULL OR lease_token = ?)",
    ),
    finish: db.prepare<[string, number, string, number | null, number | null]>(
      "UPDATE planloop_runs SET status = 'finished', result = ?, updated_at = ? WHERE run_id = ? AND status = 'running' AND (? IS NULL OR lease_token = ?)",
    ),
    // Taken when free, run out, or already this owner's; a new owner's token is one more.
    takeLease: db.prepare<[string, string, number, number, string, string, number], { lease_token: number }>(
      `UPDATE planloop_runs SET lease_owner = ?,
         lease_token = CASE WHEN lease_owner = ? AND lease_expires_at > ? THEN lease_token ELSE lease_token + 1 END,
         lease_expires_at = ?
       WHERE run_id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_expires_at <= ?) RETURNING lease_token`,
    ),
    renewLease: db.prepare<[number, string, number]>("UPDATE planloop_runs SET lease_expires_at = ? WHERE run_id = ? AND lease_token = ?"),
    releaseLease: db.prepare<[string, number]>("UPDATE planloop_runs SET lease_expires_at = 0 WHERE run_id = ? AND lease_token = ?"),
    getValue: db.prepare<[string], { value: string }>("SELECT value FROM planloop_values WHERE key = ?"),
    setValue: db.prepare("INSERT INTO planloop_values (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
    list: db.prepare<[number], RunRow & { entries: number }>(
      "SELECT r.*, (SELECT COUNT(*) FROM planloop_journal j WHERE j.run_id = r.run_id) AS entries FROM planloop_runs r ORDER BY created_at DESC, run_id DESC LIMIT ?",
    ),
  };
  // Says why a write changed nothing: the run is unknown, finished, or no longer the writer's.
  const refuse = (runId: string, token: number | undefined): never => {
    const row = statements.run.get(runId);
    if (row === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
    if (row.status === "finished") throw storeMisuse(`run "${runId}" has finished; it takes no more entries`);
    throw new LeaseLostError(runId, token ?? 0);
  };
  // The last entry number of each run this store wrote to, so an append reads nothing first;
  // another process appending to the same run makes the insert collide, and it is read again.
  const lastSeq = new Map<string, number>();
  const insertAll = (runId: string, entries: readonly JournalEntry[], from: number): number => {
    let seq = from;
    for (const entry of entries) statements.insertEntry.run(runId, ++seq, JSON.stringify(entry));
    return seq;
  };
  const append = db.transaction((runId: string, entries: readonly JournalEntry[], at: number, token: number | undefined) => {
    // One statement checks that the run is running (and still the writer's) and marks the time.
    const fence = token ?? null;
    if (statements.touchRunning.run(at, runId, fence, fence).changes === 0) refuse(runId, token);
    const known = lastSeq.get(runId);
    let seq: number;
    try {
      seq = insertAll(runId, entries, known ?? statements.lastSeq.get(runId)?.seq ?? 0);
    } catch (error) {
      if (known === undefined || (error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
      seq = insertAll(runId, entries, statements.lastSeq.get(runId)?.seq ?? 0);
    }
    lastSeq.set(runId, seq);
  });
  const finish = db.transaction((runId: string, result: unknown, at: number, token: number | undefined) => {
    const fence = token ?? null;
    if (statements.finish.run(JSON.stringify(result ?? null), at, runId, fence, fence).changes === 0) refuse(runId, token);
    lastSeq.delete(runId);
  });
  return {
    location: options.path,
    createRun: ({ runId, entry, at }) => (statements.insertRun.run(runId, entry, at, at).changes === 1 ? "created" : "exists"),
    getRun(runId) {
      const row = statements.run.get(runId);
      if (row === undefined) return undefined;
      const where = (what: string) => ({ store: options.path, runId, what });
      const journal = statements.journal
        .all(runId)
        .map((line, index) => readStoredJson(line.entry, where(`journal entry ${index + 1}`)) as JournalEntry);
      return {
        ...summaryOf(row),
        ...(row.result === null ? {} : { result: readStoredJson(row.result, where("the result")) }),
        journal,
      } satisfies StoredRun;
    },
    // Writes take the write lock when they begin (IMMEDIATE) and wait for it there: a deferred
    // transaction that read first could not upgrade once another process had written.
    append: (runId, entries, at, token) => append.immediate(runId, entries, at, token),
    finishRun: (runId, result, at, token) => finish.immediate(runId, result, at, token),
    acquireLease(runId, { owner, ttlMs, at }) {
      const taken = statements.takeLease.get(owner, owner, at, at + ttlMs, runId, owner, at);
      if (taken !== undefined) return { kind: "acquired", token: taken.lease_token };
      const row = statements.run.get(runId) as (RunRow & { lease_owner: string | null; lease_expires_at: number }) | undefined;
      if (row === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
      return { kind: "held", owner: row.lease_owner ?? "another process", expiresAt: row.lease_expires_at };
    },
    renewLease: (runId, { token, ttlMs, at }) => statements.renewLease.run(at + ttlMs, runId, token).changes === 1,
    releaseLease: (runId, token) => void statements.releaseLease.run(runId, token),
    listRuns: (listing = {}) =>
      statements.list.all(listing.limit ?? -1).map((row): RunSummary => ({ ...summaryOf(row), entries: row.entries })),
    getValue(key) {
      const row = statements.getValue.get(key);
      return row === undefined ? undefined : (JSON.parse(row.value) as unknown);
    },
    setValue: (key, value) => void statements.setValue.run(key, JSON.stringify(value ?? null)),
    close: () => {
      if (db.open) db.close();
    },
  };
}

/** A store holds tools' arguments and outputs: a new file is made private to its owner before SQLite opens it. */
function createPrivately(path: string): void {
  if (path === ":memory:" || path.startsWith("file:") || existsSync(path)) return;
  closeSync(openSync(path, "a", 0o600));
}
