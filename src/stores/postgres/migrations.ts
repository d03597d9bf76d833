import type { ClientBase } from "pg";
import { PlanloopError } from "../../core/errors.js";

/**
 * The Postgres store's schema, one step per version, never edited once released. Entries are
 * kept as JSON text (not jsonb), so a run reads back exactly what it wrote, key order included.
 */
const migrations: readonly string[] = [
  `CREATE TABLE planloop_runs (
     run_id TEXT PRIMARY KEY,
     entry TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
     result TEXT,
     created_at DOUBLE PRECISION NOT NULL,
     updated_at DOUBLE PRECISION NOT NULL
   );
   CREATE TABLE planloop_journal (
     seq BIGSERIAL PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES planloop_runs (run_id),
     entry TEXT NOT NULL
   );
   CREATE INDEX planloop_journal_run ON planloop_journal (run_id, seq);
   CREATE INDEX planloop_runs_created ON planloop_runs (created_at);`,
  `CREATE TABLE planloop_values (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // A run's lease: who may write to it, until when, and the fencing token of its owner.
  `ALTER TABLE planloop_runs ADD COLUMN lease_owner TEXT;
   ALTER TABLE planloop_runs ADD COLUMN lease_token BIGINT NOT NULL DEFAULT 0;
   ALTER TABLE planloop_runs ADD COLUMN lease_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0;`,
  // Listing at scale: the run a run is kept inside, how it stands (JSON), and the top-level runs indexed.
  `ALTER TABLE planloop_runs ADD COLUMN kept_in TEXT, ADD COLUMN outcome TEXT;
   UPDATE planloop_runs SET outcome = json_build_object(
       'status', coalesce(result::json ->> 'status', 'finished'),
       'taskType', result::json ->> 'taskType',
       'usage', result::json -> 'usage')::text
     WHERE status = 'finished' AND result IS NOT NULL;
   UPDATE planloop_runs r SET kept_in = (
       SELECT p.run_id FROM planloop_runs p
       WHERE p.run_id = ANY (
         SELECT array_to_string((string_to_array(r.run_id, '/'))[1:n], '/')
         FROM generate_series(1, array_length(string_to_array(r.run_id, '/'), 1) - 1) AS n)
       ORDER BY length(p.run_id) DESC LIMIT 1)
     WHERE position('/' in r.run_id) > 0;
   CREATE INDEX planloop_runs_top ON planloop_runs (created_at DESC, run_id DESC) WHERE kept_in IS NULL;`,
  // Durable waits: what wakes a waiting run (its earliest time, the events it waits for), and the events sent.
  `ALTER TABLE planloop_runs ADD COLUMN wake_at DOUBLE PRECISION, ADD COLUMN wake_events TEXT;
   CREATE INDEX planloop_runs_wake_at ON planloop_runs (wake_at) WHERE wake_at IS NOT NULL;
   CREATE INDEX planloop_runs_wake_events ON planloop_runs (run_id) WHERE wake_events IS NOT NULL;
   CREATE TABLE planloop_events (
     seq BIGSERIAL PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     data TEXT NOT NULL,
     run_id TEXT,
     at DOUBLE PRECISION NOT NULL,
     expires_at DOUBLE PRECISION NOT NULL,
     taken_by TEXT,
     taken_at DOUBLE PRECISION
   );
   CREATE INDEX planloop_events_name ON planloop_events (name, seq);
   CREATE INDEX planloop_events_expiry ON planloop_events (expires_at);`,
  // Where a run came from (JSON: schedule, fork, API client), written when it is created; older rows have none.
  `ALTER TABLE planloop_runs ADD COLUMN origin TEXT;`,
  // An event is keyed by its name, id and target run, not its id alone (rows kept before stay as they are).
  `ALTER TABLE planloop_events DROP CONSTRAINT planloop_events_id_key;
   CREATE UNIQUE INDEX planloop_events_key ON planloop_events (name, id, coalesce(run_id, ''));`,
  // The change feed (\`watchRuns\`): each write to a run's row notifies its top-level run's id on one
  // channel, with the schema, at commit. Lease renewals set neither column and are not changes.
  // An id too long for a notification's payload is sent as '' (listeners look at every run).
  `CREATE FUNCTION planloop_runs_changed() RETURNS trigger LANGUAGE plpgsql AS $feed$
   DECLARE top TEXT := split_part(NEW.run_id, '/', 1);
   BEGIN
     PERFORM pg_notify('planloop_runs', json_build_array(TG_TABLE_SCHEMA, CASE WHEN octet_length(top) > 7000 THEN '' ELSE top END)::text);
     RETURN NULL;
   END
   $feed$;
   CREATE TRIGGER planloop_runs_changed AFTER UPDATE OF updated_at, status ON planloop_runs
     FOR EACH ROW EXECUTE FUNCTION planloop_runs_changed();`,
];

/** The schema version this planloop writes. */
export const schemaVersion = migrations.length;

/** Any number written here; it only has to be the same in every process that migrates. */
const migrationLock = 0x706c6e6c;

/**
 * Brings the database up to date in one transaction, holding an advisory lock so that
 * processes opening the store at once migrate one after the other.
 */
export async function migrate(client: ClientBase, upTo: number = schemaVersion): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [migrationLock]);
    await client.query("CREATE TABLE IF NOT EXISTS planloop_schema (version INTEGER NOT NULL)");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM planloop_schema");
    const current = rows[0]?.version ?? 0;
    if (current > schemaVersion) {
      throw new PlanloopError(
        `this checkpoint database has schema version ${current}, newer than this planloop's ${schemaVersion}; upgrade planloop`,
      );
    }
    for (let version = current; version < upTo; version += 1) await client.query(migrations[version]!);
    const next = Math.max(current, upTo);
    if (rows.length === 0) await client.query("INSERT INTO planloop_schema (version) VALUES ($1)", [next]);
    else await client.query("UPDATE planloop_schema SET version = $1", [next]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
