import type BetterSqlite3 from "better-sqlite3";
import { PlanloopError } from "../../core/errors.js";

/**
 * The store's schema, one step per version, never edited once released: a database made
 * by an older planloop is brought up to date on opening; one made by a newer planloop is
 * refused rather than misread.
 */
const migrations: readonly string[] = [
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
];

/** The schema version this planloop writes. */
export const schemaVersion = migrations.length;

export function migrate(db: BetterSqlite3.Database, upTo: number = schemaVersion): void {
  db.exec("CREATE TABLE IF NOT EXISTS planloop_schema (version INTEGER NOT NULL)");
  const upgrade = db.transaction(() => {
    const row = db.prepare<[], { version: number }>("SELECT version FROM planloop_schema").get();
    const current = row?.version ?? 0;
    if (current > schemaVersion) {
      throw new PlanloopError(
        `this checkpoint database has schema version ${current}, newer than this planloop's ${schemaVersion}; upgrade planloop`,
      );
    }
    for (let version = current; version < upTo; version += 1) db.exec(migrations[version]!);
    if (row === undefined) db.prepare("INSERT INTO planloop_schema (version) VALUES (?)").run(Math.max(current, upTo));
    else db.prepare("UPDATE planloop_schema SET version = ?").run(Math.max(current, upTo));
  });
  upgrade.immediate();
}
