import type * as Pg from "pg";
import {
  appendedOutcome,
  finishedOutcome,
  keptInCandidates,
  storeMisuse,
  type CheckpointStore,
  type JournalEntry,
  type StoredRun,
} from "../../journal/checkpoint-store.js";
import { LeaseLostError } from "../../core/errors.js";
import { loadOptionalPackage } from "../../core/optional-package.js";
import { migrate } from "./migrations.js";
import { postgresDueRuns, postgresEvents } from "./postgres-events.js";
import { postgresFeed } from "./postgres-feed.js";
import { originColumn, readStoredJson, summaryOf, type RunRow } from "../run-row.js";
import { listedSummary, listQuery, outcomeRow, outcomesQuery, postgresDialect, type ListedRow } from "../run-listing.js";

/** Where the store connects: a connection string (the store owns its pool), or a pool of yours. */
export type PostgresStoreOptions = { connectionString: string; pool?: never } | { pool: Pg.Pool; connectionString?: never };

const sql = {
  // A run is kept inside the nearest run its id starts with (`<runId>/…`), found by primary key.
  insertRun: `INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at, kept_in, origin)
              VALUES ($1, $2, 'running', $3, $3,
                (SELECT run_id FROM planloop_runs WHERE run_id = ANY ($4::text[]) ORDER BY length(run_id) DESC LIMIT 1), $5)
              ON CONFLICT DO NOTHING`,
  // One statement: the run is checked to be running, marked, and its entries added, or nothing is.
  // The row lock of the update orders appends to one run from several processes.
  // A write under a token ($4) is made only while that token is the run's lease (fencing).
  // The same update keeps how the run stands ($5): paused (the last entry a pause) or running (null).
  append: `WITH running AS (
             UPDATE planloop_runs SET updated_at = $2, outcome = $5, wake_at = $6, wake_events = $7
             WHERE run_id = $1 AND status = 'running' AND ($4::bigint IS NULL OR lease_token = $4) RETURNING run_id
           )
           INSERT INTO planloop_journal (run_id, entry)
           SELECT running.run_id, e.entry FROM running, unnest($3::text[]) WITH ORDINALITY AS e(entry, n) ORDER BY e.n`,
  touch: "UPDATE planloop_runs SET updated_at = $2 WHERE run_id = $1 AND status = 'running' AND ($3::bigint IS NULL OR lease_token = $3)",
  finish: `UPDATE planloop_runs SET status = 'finished', result = $2, updated_at = $3, outcome = $5, wake_at = NULL, wake_events = NULL
           WHERE run_id = $1 AND status = 'running' AND ($4::bigint IS NULL OR lease_token = $4)`,
  // Taken when free, run out, or already this owner's; a new owner's token is one more.
  takeLease: `UPDATE planloop_runs SET lease_owner = $2,
                lease_token = CASE WHEN lease_owner = $2 AND lease_expires_at > $3 THEN lease_token ELSE lease_token + 1 END,
                lease_expires_at = $4
              WHERE run_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at <= $3 OR lease_owner = $5)
              RETURNING lease_token`,
  renewLease: "UPDATE planloop_runs SET lease_expires_at = $3 WHERE run_id = $1 AND lease_token = $2",
  releaseLease: "UPDATE planloop_runs SET lease_expires_at = 0 WHERE run_id = $1 AND lease_token = $2",
  run: "SELECT * FROM planloop_runs WHERE run_id = $1",
  now: "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now",
  // The entries after the first $2 (0: all of them).
  runWithJournal: `SELECT r.*, ARRAY(SELECT j.entry FROM planloop_journal j WHERE j.run_id = r.run_id ORDER BY j.seq OFFSET $2) AS journal
                   FROM planloop_runs r WHERE r.run_id = $1`,
  getValue: "SELECT value FROM planloop_values WHERE key = $1",
  // A key with no value yet holds the text "undefined" (not JSON) until its update writes one.
  holdValue: "INSERT INTO planloop_values (key, value) VALUES ($1, 'undefined') ON CONFLICT (key) DO NOTHING",
  lockValue: "SELECT value FROM planloop_values WHERE key = $1 FOR UPDATE",
  setValue: "INSERT INTO planloop_values (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
};

/**
 * The checkpoint store for teams and many processes: PostgreSQL through `pg` (an optional
 * peer). Tables are created, or brought up to date, on first use, under an advisory lock.
 * Each checkpoint is one statement, so one round trip to the server.
 *
 * @example
 * import { postgresStore } from "planloop/postgres";
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export function postgresStore(options: PostgresStoreOptions): CheckpointStore {
  const given = options as { connectionString?: unknown; pool?: unknown } | undefined;
  const hasString = typeof given?.connectionString === "string" && given.connectionString !== "";
  const hasPool = typeof given?.pool === "object" && given.pool !== null;
  if (hasString === hasPool) throw storeMisuse("postgresStore needs either { connectionString } or { pool }, not both");
  const pool = hasPool ? (given!.pool as Pg.Pool) : newPool(given!.connectionString as string);
  const ownsPool = !hasPool;
  const location = hasString ? withoutPassword(given!.connectionString as string) : "the Postgres pool given";
  let ready: Promise<void> | undefined;
  const migrated = (): Promise<void> =>
    (ready ??= (async () => {
      const client = await pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      ready = undefined; // the next call tries again (the server may have been starting)
      throw error;
    }));
  const query = async <Row extends Pg.QueryResultRow>(text: string, values: unknown[]): Promise<Pg.QueryResult<Row>> => {
    await migrated();
    return pool.query<Row>(text, values);
  };
  // Says why a write changed nothing: the run is unknown, finished, or no longer the writer's.
  const refuse = async (runId: string, token: number | undefined): Promise<never> => {
    const { rows } = await query<RunRow>(sql.run, [runId]);
    if (rows[0] === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
    if (rows[0].status === "finished" && token === undefined) throw storeMisuse(`run "${runId}" has finished; it takes no more entries`);
    // A writer with a token on a finished run lost it: another owner took it over and finished it.
    throw new LeaseLostError(runId, token ?? 0);
  };
  let closed = false;
  const feed = postgresFeed(pool, migrated);
  const readRun = async (runId: string, from: number): Promise<StoredRun | undefined> => {
    const { rows } = await query<RunRow & { journal: string[] }>(sql.runWithJournal, [runId, from]);
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      ...summaryOf(row, location),
      ...(row.result === null ? {} : { result: readStoredJson(row.result, { store: location, runId, what: "the result" }) }),
      journal: row.journal.map(
        (line, index) => readStoredJson(line, { store: location, runId, what: `journal entry ${from + index + 1}` }) as JournalEntry,
      ),
    } satisfies StoredRun;
  };
  return {
    location,
    async createRun({ runId, entry, at, origin }) {
      const { rowCount } = await query(sql.insertRun, [runId, entry, at, keptInCandidates(runId), originColumn(origin)]);
      return rowCount === 1 ? "created" : "exists";
    },
    getRun: (runId) => readRun(runId, 0),
    getRunFrom: (runId, from) => readRun(runId, from),
    async append(runId, entries, at, token) {
      const fence = token ?? null;
      const { rowCount } =
        entries.length === 0
          ? await query(sql.touch, [runId, at, fence])
          : await query(sql.append, [runId, at, entries.map((entry) => JSON.stringify(entry)), fence, ...stands(appendedOutcome(entries))]);
      if (rowCount === 0) await refuse(runId, token);
    },
    async finishRun(runId, result, at, token) {
      const outcome = JSON.stringify(finishedOutcome(result ?? null));
      const { rowCount } = await query(sql.finish, [runId, JSON.stringify(result ?? null), at, token ?? null, outcome]);
      if (rowCount === 0) await refuse(runId, token);
    },
    async acquireLease(runId, { owner, ttlMs, at, goneOwner }) {
      const { rows } = await query<{ lease_token: string }>(sql.takeLease, [runId, owner, at, at + ttlMs, goneOwner ?? null]);
      if (rows[0] !== undefined) return { kind: "acquired", token: Number(rows[0].lease_token) };
      const held = await query<RunRow & { lease_owner: string | null; lease_expires_at: number }>(sql.run, [runId]);
      if (held.rows[0] === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
      return { kind: "held", owner: held.rows[0].lease_owner ?? "another process", expiresAt: held.rows[0].lease_expires_at };
    },
    async renewLease(runId, { token, ttlMs, at }) {
      const { rowCount } = await query(sql.renewLease, [runId, token, at + ttlMs]);
      return rowCount === 1;
    },
    async releaseLease(runId, token) {
      await query(sql.releaseLease, [runId, token]);
    },
    async now() {
      const { rows } = await query<{ now: number }>(sql.now, []);
      return Number(rows[0]!.now);
    },
    async listRuns(filters = {}) {
      const listing = listQuery(filters, postgresDialect);
      const { rows } = await query<ListedRow>(listing.sql, listing.values);
      return rows.map((row) => listedSummary(row, location));
    },
    async runOutcomes(filters = {}) {
      const listing = outcomesQuery(filters, postgresDialect);
      const { rows } = await query<{ run_id: string; entry: string; outcome: string }>(listing.sql, listing.values);
      return rows.map((row) => outcomeRow(row, location));
    },
    async getValue(key) {
      const { rows } = await query<{ value: string }>(sql.getValue, [key]);
      return rows[0] === undefined ? undefined : (JSON.parse(rows[0].value) as unknown);
    },
    async setValue(key, value) {
      await query(sql.setValue, [key, JSON.stringify(value ?? null)]);
    },
    async updateValue(key, update) {
      await migrated();
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        // The row made first if missing, then locked: other writers of the key wait here.
        await client.query(sql.holdValue, [key]);
        const { rows } = await client.query<{ value: string }>(sql.lockValue, [key]);
        const text = rows[0]?.value;
        const next = update(text === undefined || text === "undefined" ? undefined : (JSON.parse(text) as unknown));
        await client.query(sql.setValue, [key, JSON.stringify(next ?? null)]);
        await client.query("COMMIT");
        return next;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    events: postgresEvents(pool, query, migrated),
    dueRuns: postgresDueRuns(query),
    watchRuns: feed.watch,
    async close() {
      feed.close();
      if (closed || !ownsPool) return;
      closed = true;
      await pool.end();
    },
  };
}

/** An outcome as the append keeps it (JSON text, or null for a running run), with what wakes a waiting run. */
function stands(outcome: ReturnType<typeof appendedOutcome>): [string | null, number | null, string | null] {
  const events = outcome?.wake?.events;
  return [outcome ? JSON.stringify(outcome) : null, outcome?.wake?.at ?? null, events?.length ? JSON.stringify(events) : null];
}

function newPool(connectionString: string): Pg.Pool {
  const pg = loadOptionalPackage<typeof Pg>({ name: "pg", neededFor: "planloop/postgres", install: "pg@8" });
  const pool = new pg.Pool({ connectionString });
  // An idle connection the server dropped is reported here; the next query reconnects, or fails itself.
  pool.on("error", () => {});
  return pool;
}

/** A connection string as messages show it: the password left out. */
function withoutPassword(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "the Postgres server";
  }
}
