import type * as Pg from "pg";
import type { EventLog } from "../../journal/checkpoint-store.js";
import { storedEventOf, type EventRow } from "../run-row.js";

type Query = <Row extends Pg.QueryResultRow>(text: string, values: unknown[]) => Promise<Pg.QueryResult<Row>>;

/** Any number; only the same in every process. Events are numbered one at a time under it. */
const eventLock = 0x706c6576;

/** Whether an event's target ($event) reaches a run ($run): itself, or a run it is kept inside. */
const reaches = (event: string, run: string) => `(${event} IS NULL OR ${event} = ${run} OR starts_with(${run}, ${event} || '/'))`;

/**
 * The Postgres store's events. They are numbered under a transaction lock, so numbers are
 * visible in the order they were given: a waiting run's place (`afterSeq`) is never passed by
 * an event that commits later with a smaller number.
 */
export function postgresEvents(pool: Pg.Pool, query: Query, migrated: () => Promise<void>): EventLog {
  return {
    async put(event) {
      await migrated();
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1)", [eventLock]);
        await client.query("DELETE FROM planloop_events WHERE expires_at <= $1", [event.at]);
        const inserted = await client.query<{ seq: string }>(
          `INSERT INTO planloop_events (id, name, data, run_id, at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT DO NOTHING RETURNING seq`,
          [event.id, event.name, JSON.stringify(event.data ?? null), event.runId ?? null, event.at, event.expiresAt],
        );
        // An event's key: its name, id and target run (a duplicate is only ever one of the same event).
        const known =
          inserted.rows[0] ??
          (
            await client.query<{ seq: string }>(
              "SELECT seq FROM planloop_events WHERE name = $1 AND id = $2 AND coalesce(run_id, '') = coalesce($3, '')",
              [event.name, event.id, event.runId ?? null],
            )
          ).rows[0]!;
        await client.query("COMMIT");
        return { seq: Number(known.seq), duplicate: inserted.rows.length === 0 };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async lastSeq() {
      const { rows } = await query<{ seq: string }>("SELECT coalesce(MAX(seq), 0) AS seq FROM planloop_events", []);
      return Number(rows[0]?.seq ?? 0);
    },
    async read({ name, runId, afterSeq, upTo = Number.MAX_SAFE_INTEGER, at, limit }) {
      const { rows } = await query<EventRow>(
        `SELECT * FROM planloop_events WHERE name = $1 AND seq > $2 AND seq <= $3 AND expires_at > $4 AND ${reaches("run_id", "$5")}
         ORDER BY seq LIMIT $6`,
        [name, afterSeq, upTo, at, runId, limit ?? null],
      );
      return rows.map(storedEventOf);
    },
    async take(seq, runId, at) {
      const { rowCount } = await query("UPDATE planloop_events SET taken_by = $2, taken_at = $3 WHERE seq = $1 AND taken_by IS NULL", [
        seq,
        runId,
        at,
      ]);
      return rowCount === 1;
    },
  };
}

/** The runs due to wake by `at` (see `CheckpointStore.dueRuns`), the longest due first. */
export function postgresDueRuns(query: Query): (request: { at: number; limit: number }) => Promise<string[]> {
  return async ({ at, limit }) => {
    const { rows } = await query<{ run_id: string }>(
      `SELECT run_id FROM (
         SELECT run_id, wake_at AS due FROM planloop_runs WHERE wake_at IS NOT NULL AND wake_at <= $1 AND status = 'running'
         UNION ALL
         SELECT r.run_id, e.at AS due FROM planloop_runs r
           CROSS JOIN LATERAL jsonb_array_elements(r.wake_events::jsonb) AS w(value)
           JOIN planloop_events e ON e.name = w.value ->> 'name' AND e.seq > (w.value ->> 'afterSeq')::bigint
         WHERE r.wake_events IS NOT NULL AND r.status = 'running' AND e.expires_at > $1 AND ${reaches("e.run_id", "r.run_id")}
       ) due GROUP BY run_id ORDER BY MIN(due), run_id LIMIT $2`,
      [at, limit],
    );
    return rows.map((row) => row.run_id);
  };
}
