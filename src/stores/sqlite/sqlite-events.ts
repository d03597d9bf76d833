import type { EventLog } from "../../journal/checkpoint-store.js";
import { storedEventOf, type EventRow } from "../run-row.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** Whether an event row's target reaches the run given as the next parameter (itself, or a run it is kept inside). */
const reaches = (event: string, run: string) =>
  `(${event} IS NULL OR ${event} = ${run} OR substr(${run}, 1, length(${event}) + 1) = ${event} || '/')`;

/** The SQLite store's events (`planloop_events`), numbered by an AUTOINCREMENT key that is never used twice. */
export function sqliteEvents(db: SqliteDatabase): EventLog {
  const statements = {
    prune: db.prepare<[number]>("DELETE FROM planloop_events WHERE expires_at <= ?"),
    insert: db.prepare<[string, string, string, string | null, number, number], { seq: number }>(
      `INSERT INTO planloop_events (id, name, data, run_id, at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING seq`,
    ),
    // An event's key: its name, id and target run (a duplicate is only ever one of the same event).
    byKey: db.prepare<[string, string, string | null], { seq: number }>(
      "SELECT seq FROM planloop_events WHERE name = ? AND id = ? AND coalesce(run_id, '') = coalesce(?, '')",
    ),
    last: db.prepare<[], { seq: number }>("SELECT coalesce(MAX(seq), 0) AS seq FROM sqlite_sequence WHERE name = 'planloop_events'"),
    read: db.prepare<[string, number, number, number, string, string, number], EventRow>(
      `SELECT * FROM planloop_events WHERE name = ? AND seq > ? AND seq <= ? AND expires_at > ? AND ${reaches("run_id", "?")}
       ORDER BY seq LIMIT ?`,
    ),
    take: db.prepare<[string, number, number]>("UPDATE planloop_events SET taken_by = ?, taken_at = ? WHERE seq = ? AND taken_by IS NULL"),
  };
  return {
    put(event) {
      statements.prune.run(event.at);
      const data = JSON.stringify(event.data ?? null);
      const inserted = statements.insert.get(event.id, event.name, data, event.runId ?? null, event.at, event.expiresAt);
      if (inserted !== undefined) return { seq: Number(inserted.seq), duplicate: false };
      return { seq: Number(statements.byKey.get(event.name, event.id, event.runId ?? null)!.seq), duplicate: true };
    },
    lastSeq: () => Number(statements.last.get()?.seq ?? 0),
    read: ({ name, runId, afterSeq, upTo = Number.MAX_SAFE_INTEGER, at, limit = -1 }) =>
      statements.read.all(name, afterSeq, upTo, at, runId, runId, limit).map(storedEventOf),
    take: (seq, runId, at) => Number(statements.take.run(runId, at, seq).changes) === 1,
  };
}

/**
 * The runs due to wake by `at`: a timer due, or an unexpired event of a name a run waits for
 * numbered after the run's place (`wake_events`: `[{ name, afterSeq }]`), the longest due first.
 */
export function sqliteDueRuns(db: SqliteDatabase): (query: { at: number; limit: number }) => string[] {
  const statement = db.prepare<[number, number, number], { run_id: string }>(
    `SELECT run_id FROM (
       SELECT run_id, wake_at AS due FROM planloop_runs WHERE wake_at IS NOT NULL AND wake_at <= ? AND status = 'running'
       UNION ALL
       SELECT r.run_id, e.at AS due FROM planloop_runs r, json_each(r.wake_events) w, planloop_events e
       WHERE r.wake_events IS NOT NULL AND r.status = 'running'
         AND e.name = json_extract(w.value, '$.name') AND e.seq > json_extract(w.value, '$.afterSeq') AND e.expires_at > ?
         AND ${reaches("e.run_id", "r.run_id")}
     ) GROUP BY run_id ORDER BY MIN(due), run_id LIMIT ?`,
  );
  return ({ at, limit }) => statement.all(at, at, limit).map((row) => row.run_id);
}
