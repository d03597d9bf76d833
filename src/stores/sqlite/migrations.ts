import { keptInCandidates } from "../../journal/checkpoint-store.js";
import { PlanloopError } from "../../core/errors.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * The store's schema, one step per version, never edited once released: a database made
 * by an older planloop is brought up to date on opening; one made by a newer planloop is
 * refused rather than misread.
 */
const migrations: ReadonlyArray<string | ((db: SqliteDatabase) => void)> = [
  `CREATE TABLE planloop_runs (
     run_id TEXT PRIMARY KEY,
     entry TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
     result TEXT,
     created_at REAL NOT NULL,
     updated_at REAL NOT NULL
   );
   CREATE TABLE planloop_journal (
     run_id TEXT NOT NULL REFERENCES planloop_runs (run_id),
     seq INTEGER NOT NULL,
     entry TEXT NOT NULL,
     PRIMARY KEY (run_id, seq)
   ) WITHOUT ROWID;
   CREATE INDEX planloop_runs_created ON planloop_runs (created_at);`,
  `CREATE TABLE planloop_values (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // A run's lease: who may write to it, until when, and the fencing token of its owner.
  `ALTER TABLE planloop_runs ADD COLUMN lease_owner TEXT;
   ALTER TABLE planloop_runs ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE planloop_runs ADD COLUMN lease_expires_at REAL NOT NULL DEFAULT 0;`,
  // Listing at scale: the run a run is kept inside, how it stands (JSON), and the top-level runs indexed.
  (db) => {
    db.exec(`ALTER TABLE planloop_runs ADD COLUMN kept_in TEXT;
   ALTER TABLE planloop_runs ADD COLUMN outcome TEXT;
   UPDATE planloop_runs SET outcome = json_object(
       'status', coalesce(json_extract(result, '$.status'), 'finished'),
       'taskType', json_extract(result, '$.taskType'),
       'usage', json(coalesce(json_extract(result, '$.usage'), 'null')))
     WHERE status = 'finished' AND json_valid(result);
     CREATE INDEX planloop_runs_top ON planloop_runs (created_at, run_id) WHERE kept_in IS NULL;`);
    const exists = db.prepare<[string], { run_id: string }>("SELECT run_id FROM planloop_runs WHERE run_id = ?");
    const keep = db.prepare("UPDATE planloop_runs SET kept_in = ? WHERE run_id = ?");
    const inner = db.prepare<[], { run_id: string }>("SELECT run_id FROM planloop_runs WHERE instr(run_id, '/') > 0").all();
    for (const { run_id } of inner) {
      const keptIn = keptInCandidates(run_id).findLast((prefix) => exists.get(prefix) !== undefined);
      if (keptIn !== undefined) keep.run(keptIn, run_id);
    }
  },
  // Durable waits: what wakes a waiting run (its earliest time, the events it waits for), and the events sent.
  `ALTER TABLE planloop_runs ADD COLUMN wake_at REAL;
   ALTER TABLE planloop_runs ADD COLUMN wake_events TEXT;
   CREATE INDEX planloop_runs_wake_at ON planloop_runs (wake_at) WHERE wake_at IS NOT NULL;
   CREATE INDEX planloop_runs_wake_events ON planloop_runs (run_id) WHERE wake_events IS NOT NULL;
   CREATE TABLE planloop_events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     data TEXT NOT NULL,
     run_id TEXT,
     at REAL NOT NULL,
     expires_at REAL NOT NULL,
     taken_by TEXT,
     taken_at REAL
   );
   CREATE INDEX planloop_events_name ON planloop_events (name, seq);
   CREATE INDEX planloop_events_expiry ON planloop_events (expires_at);`,
  // Where a run came from (JSON: schedule, fork, API client), written when it is created; older rows have none.
  `ALTER TABLE planloop_runs ADD COLUMN origin TEXT;`,
  // An event is keyed by its name, id and target run, not its id alone. SQLite cannot drop a column's
  // UNIQUE, so the table is made anew, its rows and its sequence carried over: a number given before
  // (and pruned since) is never given again, so no waiting run's place is passed by a new event.
  `CREATE TABLE planloop_events_keyed (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL,
     name TEXT NOT NULL,
     data TEXT NOT NULL,
     run_id TEXT,
     at REAL NOT NULL,
     expires_at REAL NOT NULL,
     taken_by TEXT,
     taken_at REAL
   );
   INSERT INTO planloop_events_keyed (seq, id, name, data, run_id, at, expires_at, taken_by, taken_at)
     SELECT seq, id, name, data, run_id, at, expires_at, taken_by, taken_at FROM planloop_events;
   DELETE FROM sqlite_sequence WHERE name = 'planloop_events_keyed';
   INSERT INTO sqlite_sequence (name, seq) SELECT 'planloop_events_keyed', seq FROM sqlite_sequence WHERE name = 'planloop_events';
   DROP TABLE planloop_events;
   ALTER TABLE planloop_events_keyed RENAME TO planloop_events;
   CREATE UNIQUE INDEX planloop_events_key ON planloop_events (name, id, coalesce(run_id, ''));
   CREATE INDEX planloop_events_name ON planloop_events (name, seq);
   CREATE INDEX planloop_events_expiry ON planloop_events (expires_at);`,
  // The change feed (\`watchRuns\`): each write to a run's row numbers its top-level run anew, so one
  // poller finds what changed since its last look in one indexed read, whichever process wrote. The
  // trigger that numbers them is made by the first process that listens (sqlite-feed.ts): a store
  // nobody follows pays nothing for it on each commit.
  `CREATE TABLE planloop_changes (run_id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
   CREATE INDEX planloop_changes_seq ON planloop_changes (seq);`,
];

/** The schema version this planloop writes. */
export const schemaVersion = migrations.length;

export function migrate(db: SqliteDatabase, upTo: number = schemaVersion): void {
  db.exec("CREATE TABLE IF NOT EXISTS planloop_schema (version INTEGER NOT NULL)");
  const upgrade = db.transaction(() => {
    const row = db.prepare<[], { version: number }>("SELECT version FROM planloop_schema").get();
    const current = row?.version ?? 0;
    if (current > schemaVersion) {
      throw new PlanloopError(
        `this checkpoint database has schema version ${current}, newer than this planloop's ${schemaVersion}; upgrade planloop`,
      );
    }
    for (let version = current; version < upTo; version += 1) {
      const step = migrations[version]!;
      if (typeof step === "string") db.exec(step);
      else step(db);
    }
    if (row === undefined) db.prepare("INSERT INTO planloop_schema (version) VALUES (?)").run(Math.max(current, upTo));
    else db.prepare("UPDATE planloop_schema SET version = ?").run(Math.max(current, upTo));
  });
  upgrade.immediate();
}
