import { accessSync, closeSync, constants, existsSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { errorMessage, LeaseLostError, StoreError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import {
  appendedOutcome,
  finishedOutcome,
  keptInCandidates,
  storeMisuse,
  type CheckpointStore,
  type JournalEntry,
  type StoredRun,
} from "../../journal/checkpoint-store.js";

import { loadOptionalPackage } from "../../core/optional-package.js";
import { migrate, schemaVersion } from "./migrations.js";
import { sqliteDueRuns, sqliteEvents } from "./sqlite-events.js";
import { sqliteFeed } from "./sqlite-feed.js";
import { builtinSqlite, nodeSqliteDatabase } from "./node-sqlite.js";
import { originColumn, readStoredJson, summaryOf, type RunRow } from "../run-row.js";
import { listedSummary, listQuery, outcomeRow, outcomesQuery, sqliteDialect, type ListedRow, type ListQuery } from "../run-listing.js";

export interface SqliteStoreOptions {
  /**
   * The database file; created on first use readable and writable by its owner only (SQLite
   * gives its -wal and -shm files the same permission). `:memory:` for tests.
   */
  path: string;
  /**
   * Opens the file for reading only (listing and showing runs): nothing is migrated or
   * written, and any write is refused. Also chosen when the file exists and this process may
   * not write to it.
   */
  readonly?: boolean | undefined;
  /**
   * Which SQLite binding opens the file: `node:sqlite`, built into Node 22.5 and later (no
   * compiler, no download: the default where Node has it), or the optional peer
   * `better-sqlite3` (the default elsewhere, as on Node 20). Both read each other's files.
   */
  driver?: "node:sqlite" | "better-sqlite3" | undefined;
  /**
   * How often the store's one change feed (`watchRuns`: what open streams of the run server
   * follow) looks for runs written by any process, in ms. Default 100; it runs only while
   * someone listens, and a look that finds nothing is one indexed read.
   */
  feedMs?: number | undefined;
  /** Whose timers the change feed looks on: the system's, or a `FakeClock` (planloop/testing) in tests. */
  feedClock?: Clock | undefined;
}

/**
 * The embedded checkpoint store: one SQLite file (`node:sqlite`, or better-sqlite3 where Node lacks it), in WAL
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
  const readonly = options.readonly === true || unwritable(options.path);
  const open = driverOf(options.driver);
  if (!readonly) createPrivately(options.path);
  const db = openDatabase(open, options.path, readonly);
  db.pragma("busy_timeout = 5000");
  if (readonly) checkSchema(db, options.path);
  else {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    migrate(db);
  }
  const feedMs = options.feedMs ?? 100;
  if (!(Number.isFinite(feedMs) && feedMs > 0))
    throw storeMisuse(`sqliteStore: feedMs must be a number of ms above 0, not ${String(feedMs)}`);
  const feed = sqliteFeed(db, { everyMs: feedMs, clock: options.feedClock });
  const statements = {
    // A run is kept inside the nearest run its id starts with (`<runId>/…`), found by primary key.
    insertRun: db.prepare<[string, string, number, number, string, string | null]>(
      `INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at, kept_in, origin)
       VALUES (?, ?, 'running', ?, ?,
         (SELECT run_id FROM planloop_runs WHERE run_id IN (SELECT value FROM json_each(?)) ORDER BY length(run_id) DESC LIMIT 1), ?)
       ON CONFLICT DO NOTHING`,
    ),
    // A top-level id (no `/`) is kept inside no run: the lookup above costs ~30 µs even with nothing to look up.
    insertTopRun: db.prepare<[string, string, number, number, string | null]>(
      `INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at, kept_in, origin)
       VALUES (?, ?, 'running', ?, ?, NULL, ?)
       ON CONFLICT DO NOTHING`,
    ),
    run: db.prepare<[string], RunRow>("SELECT * FROM planloop_runs WHERE run_id = ?"),
    // A run's entries are numbered 1, 2, … with no gap: the ones after the first `from` are those numbered above it.
    journal: db.prepare<[string, number], { entry: string }>(
      "SELECT entry FROM planloop_journal WHERE run_id = ? AND seq > ? ORDER BY seq",
    ),
    lastSeq: db.prepare<[string], { seq: number | null }>("SELECT MAX(seq) AS seq FROM planloop_journal WHERE run_id = ?"),
    insertEntry: db.prepare("INSERT INTO planloop_journal (run_id, seq, entry) VALUES (?, ?, ?)"),
    // A write under a token is made only while that token is the run's lease (fencing).
    // The same statement keeps how the run stands: paused (the last entry a pause) or running.
    touchRunning: db.prepare<
      [number, number, string | null, number, number | null, number, string | null, string, number | null, number | null]
    >(
      `UPDATE planloop_runs SET updated_at = ?, outcome = CASE WHEN ? = 1 THEN ? ELSE outcome END,
         wake_at = CASE WHEN ? = 1 THEN ? ELSE wake_at END, wake_events = CASE WHEN ? = 1 THEN ? ELSE wake_events END
       WHERE run_id = ? AND status = 'running' AND (? IS NULL OR lease_token = ?)`,
    ),
    finish: db.prepare<[string, string, number, string, number | null, number | null]>(
      // A finished run's lease is given up with it (nothing more is written under it): the owner's own
      // release after it then changes nothing and costs no write.
      `UPDATE planloop_runs SET status = 'finished', result = ?, outcome = ?, updated_at = ?, wake_at = NULL, wake_events = NULL,
         lease_expires_at = 0
       WHERE run_id = ? AND status = 'running' AND (? IS NULL OR lease_token = ?)`,
    ),
    // Taken when free, run out, or already this owner's; a new owner's token is one more.
    takeLease: db.prepare<[string, string, number, number, string, string, number, string | null], { lease_token: number }>(
      `UPDATE planloop_runs SET lease_owner = ?,
         lease_token = CASE WHEN lease_owner = ? AND lease_expires_at > ? THEN lease_token ELSE lease_token + 1 END,
         lease_expires_at = ?
       WHERE run_id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_expires_at <= ? OR lease_owner = ?) RETURNING lease_token`,
    ),
    renewLease: db.prepare<[number, string, number]>("UPDATE planloop_runs SET lease_expires_at = ? WHERE run_id = ? AND lease_token = ?"),
    // A lease given up already (its run finished) is left as it is: no write.
    releaseLease: db.prepare<[string, number]>(
      "UPDATE planloop_runs SET lease_expires_at = 0 WHERE run_id = ? AND lease_token = ? AND lease_expires_at <> 0",
    ),
    getValue: db.prepare<[string], { value: string }>("SELECT value FROM planloop_values WHERE key = ?"),
    setValue: db.prepare("INSERT INTO planloop_values (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
  };
  const listings = new Map<string, BetterSqlite3.Statement<unknown[], unknown>>();
  const listing = <Row>(query: ListQuery): Row[] => {
    let statement = listings.get(query.sql);
    if (statement === undefined) listings.set(query.sql, (statement = db.prepare<unknown[], ListedRow>(query.sql)));
    return statement.all(...query.values) as Row[];
  };
  // Says why a write changed nothing: the run is unknown, finished, or no longer the writer's.
  const refuse = (runId: string, token: number | undefined): never => {
    const row = statements.run.get(runId);
    if (row === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
    if (row.status === "finished" && token === undefined) throw storeMisuse(`run "${runId}" has finished; it takes no more entries`);
    // A writer with a token on a finished run lost it: another owner took it over and finished it.
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
  // Read and written under the write lock (IMMEDIATE): no other process writes between.
  const updateKept = db.transaction((key: string, update: (current: unknown) => unknown) => {
    const row = statements.getValue.get(key);
    const next = update(row === undefined ? undefined : (JSON.parse(row.value) as unknown));
    statements.setValue.run(key, JSON.stringify(next ?? null));
    return next;
  });
  const append = db.transaction((runId: string, entries: readonly JournalEntry[], at: number, token: number | undefined) => {
    // One statement checks that the run is running (and still the writer's) and marks the time.
    const fence = token ?? null;
    const outcome = appendedOutcome(entries);
    const stands = outcome === undefined ? 0 : 1;
    const wake = outcome?.wake;
    const wakeEvents = wake?.events?.length ? JSON.stringify(wake.events) : null;
    const kept = outcome ? JSON.stringify(outcome) : null;
    if (statements.touchRunning.run(at, stands, kept, stands, wake?.at ?? null, stands, wakeEvents, runId, fence, fence).changes === 0)
      refuse(runId, token);
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
    const kept = JSON.stringify(result ?? null);
    const outcome = JSON.stringify(finishedOutcome(result ?? null));
    if (statements.finish.run(kept, outcome, at, runId, fence, fence).changes === 0) refuse(runId, token);
    lastSeq.delete(runId);
  });
  // A batch's writes are one transaction (the writes inside nest as savepoints). When it is undone,
  // the entry numbers it counted were not kept: they are read again.
  const inBatch = db.transaction((work: () => unknown) => work());
  const batch = <T>(work: () => T): T => {
    try {
      return inBatch.immediate(work) as T;
    } catch (error) {
      lastSeq.clear();
      throw error;
    }
  };
  const readRun = (runId: string, from: number): StoredRun | undefined => {
    const row = statements.run.get(runId);
    if (row === undefined) return undefined;
    const where = (what: string) => ({ store: options.path, runId, what });
    const journal = statements.journal
      .all(runId, from)
      .map((line, index) => readStoredJson(line.entry, where(`journal entry ${from + index + 1}`)) as JournalEntry);
    return {
      ...summaryOf(row, options.path),
      ...(row.result === null ? {} : { result: readStoredJson(row.result, where("the result")) }),
      journal,
    } satisfies StoredRun;
  };
  return {
    location: options.path,
    createRun: ({ runId, entry, at, origin }) =>
      (runId.includes("/")
        ? statements.insertRun.run(runId, entry, at, at, JSON.stringify(keptInCandidates(runId)), originColumn(origin))
        : statements.insertTopRun.run(runId, entry, at, at, originColumn(origin))
      ).changes === 1
        ? "created"
        : "exists",
    getRun: (runId) => readRun(runId, 0),
    getRunFrom: (runId, from) => readRun(runId, from),
    // Writes take the write lock when they begin (IMMEDIATE) and wait for it there: a deferred
    // transaction that read first could not upgrade once another process had written.
    append: (runId, entries, at, token) => append.immediate(runId, entries, at, token),
    finishRun: (runId, result, at, token) => finish.immediate(runId, result, at, token),
    ...(readonly ? {} : { batch }),
    acquireLease(runId, { owner, ttlMs, at, goneOwner }) {
      const taken = statements.takeLease.get(owner, owner, at, at + ttlMs, runId, owner, at, goneOwner ?? null);
      if (taken !== undefined) return { kind: "acquired", token: taken.lease_token };
      const row = statements.run.get(runId) as (RunRow & { lease_owner: string | null; lease_expires_at: number }) | undefined;
      if (row === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
      return { kind: "held", owner: row.lease_owner ?? "another process", expiresAt: row.lease_expires_at };
    },
    renewLease: (runId, { token, ttlMs, at }) => statements.renewLease.run(at + ttlMs, runId, token).changes === 1,
    releaseLease: (runId, token) => void statements.releaseLease.run(runId, token),
    listRuns: (filters = {}) => listing<ListedRow>(listQuery(filters, sqliteDialect)).map((row) => listedSummary(row, options.path)),
    runOutcomes: (filters = {}) =>
      listing<{ run_id: string; entry: string; outcome: string }>(outcomesQuery(filters, sqliteDialect)).map((row) =>
        outcomeRow(row, options.path),
      ),
    getValue(key) {
      const row = statements.getValue.get(key);
      return row === undefined ? undefined : (JSON.parse(row.value) as unknown);
    },
    setValue: (key, value) => void statements.setValue.run(key, JSON.stringify(value ?? null)),
    updateValue: (key, update) => updateKept.immediate(key, update),
    ...(readonly ? {} : { events: sqliteEvents(db), dueRuns: sqliteDueRuns(db) }),
    ...(readonly ? {} : { watchRuns: feed.watch }),
    close: () => {
      feed.close();
      if (db.open) db.close();
    },
  };
}

/** How the file is opened: with node:sqlite where Node has it (or asked for), else better-sqlite3. */
export function driverOf(driver: SqliteStoreOptions["driver"]): (path: string, readonly: boolean) => BetterSqlite3.Database {
  if (driver !== undefined && driver !== "node:sqlite" && driver !== "better-sqlite3")
    throw storeMisuse(`sqliteStore: driver must be "node:sqlite" or "better-sqlite3", not ${JSON.stringify(driver)}`);
  const builtin = driver === "better-sqlite3" ? undefined : builtinSqlite();
  if (builtin !== undefined) return (path, readonly) => nodeSqliteDatabase(builtin, path, readonly);
  if (driver === "node:sqlite") throw storeMisuse(`sqliteStore: this Node (${process.version}) has no node:sqlite; it came in Node 22.5`);
  const Database = loadOptionalPackage<typeof BetterSqlite3>({
    name: "better-sqlite3",
    neededFor: "planloop/sqlite",
    install: "better-sqlite3@12",
  });
  return (path, readonly) => new Database(path, readonly ? { readonly: true, fileMustExist: true } : {});
}

function openDatabase(
  open: (path: string, readonly: boolean) => BetterSqlite3.Database,
  path: string,
  readonly: boolean,
): BetterSqlite3.Database {
  try {
    return open(path, readonly);
  } catch (error) {
    throw new StoreError({
      store: path,
      problem: `the store cannot be opened${readonly ? " for reading" : ""} (${errorMessage(error)})`,
      cause: error,
    });
  }
}

/** A file that exists and that this process may not write: opened for reading. */
function unwritable(path: string): boolean {
  if (path === ":memory:" || path.startsWith("file:") || !existsSync(path)) return false;
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** A file opened for reading is not migrated: it must be at this planloop's schema already. */
function checkSchema(db: BetterSqlite3.Database, path: string): void {
  let version: number | undefined;
  try {
    version = db.prepare<[], { version: number }>("SELECT version FROM planloop_schema").get()?.version;
  } catch {
    version = undefined;
  }
  if (version === schemaVersion) return;
  db.close();
  const problem =
    version === undefined
      ? "opened for reading, it holds no planloop runs"
      : version > schemaVersion
        ? `it has schema version ${version}, newer than this planloop's ${schemaVersion}; upgrade planloop`
        : `opened for reading, it has schema version ${version} (this planloop reads ${schemaVersion}); open it once with write access to bring it up to date`;
  throw new StoreError({ store: path, problem });
}

/** A store holds tools' arguments and outputs: a new file is made private to its owner before SQLite opens it. */
export function createPrivately(path: string): void {
  if (path === ":memory:" || path.startsWith("file:") || existsSync(path)) return;
  const folder = dirname(path);
  if (!existsSync(folder)) {
    throw new StoreError({
      store: path,
      problem: `the folder ${resolve(folder)} does not exist: create it (mkdir -p ${folder}), or give a path in a folder that exists`,
    });
  }
  closeSync(openSync(path, "a", 0o600));
}
