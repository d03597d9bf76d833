import { createHash } from "node:crypto";
import { checkClosingTime, type LimitStore } from "../core/limit-store.js";
import { clockSlackMs, longestCooldownMs } from "../core/next-turn.js";

/** The part of a `pg` pool (or client) the store uses. */
interface PostgresPool {
  query(sql: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number | null }>;
}

/** A table name the store puts in its SQL as it is: letters, digits and underscores, optionally schema-qualified. */
const tableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * Limits' state in Postgres (a `pg` pool): one row per key in `tableName` (made at first use).
 * Every operation is one statement, atomic on the row. The table is unlogged: turns, cooldowns
 * and holds are worth nothing after a crash of the database, and a write need not wait for the
 * disk.
 */
export function postgresLimitStore(postgres: unknown, tableName = "planloop_limit_state"): LimitStore {
  const pool = postgres as PostgresPool;
  if (typeof pool?.query !== "function") throw new TypeError("shared.postgres must be a pg Pool (it has no query)");
  if (!tableNamePattern.test(tableName))
    throw new TypeError(`shared.tableName must be a plain table name, got ${JSON.stringify(tableName)}`);
  const table = tableName;
  const tenants = `${tableName}_tenants`;
  // Versioned: a process of an older planloop keeps calling the function it made.
  // v3: a served tenant's claim holds until the next turn (v2 let it go at once), and a cooldown
  // further ahead than any can be is over (next_turn v2 too).
  const fairTurn = `${tableName}_fair_turn_v3`;
  const nextTurn = `${tableName}_next_turn_v2`;
  let made: Promise<void> | undefined;
  const ready = () =>
    (made ??= setUp(pool, setupStatements({ table, tenants, fairTurn, nextTurn })).catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  const query = async (sql: string, values: unknown[]) => {
    await ready();
    return pool.query(sql, values);
  };
  const store: LimitStore = {
    bookNext: async (key, { intervalMs, now }) => {
      const { rows } = await query(`SELECT start, retry_at FROM ${nextTurn}($1, $2, $3, $4, $5)`, [
        key,
        intervalMs,
        now,
        clockSlackMs,
        longestCooldownMs,
      ]);
      const row = rows[0]!;
      return row.start === null ? { retryAt: Number(row.retry_at) } : { start: Number(row.start) };
    },
    bookFair: async (key, { tenant, intervalMs, now, step, claimMs }) => {
      const { rows } = await query(`SELECT start, retry_at FROM ${fairTurn}($1, $2, $3, $4, $5, $6, $7, $8)`, [
        key,
        tenant,
        intervalMs,
        now,
        step,
        claimMs,
        clockSlackMs,
        longestCooldownMs,
      ]);
      const row = rows[0]!;
      return row.start === null ? { retryAt: Number(row.retry_at) } : { start: Number(row.start) };
    },
    // `decideBooking` (src/core/booked-line.ts): every right-hand side reads the row as it was.
    // $2 now, $3 the interval, $4 not before, $5 the clocks' slack, $6 the longest cooldown and the slack.
    book: async (key, { intervalMs, now, notBefore }) => {
      const { rows } = await query(
        `INSERT INTO ${table} AS t (key, next_at, booked_at) VALUES ($1, $4::double precision + $3::double precision, $2)
         ON CONFLICT (key) DO UPDATE SET
           next_at = GREATEST($4::double precision,
             t.next_at - CASE WHEN t.booked_at > $2::double precision + $5::double precision THEN t.booked_at - $2::double precision ELSE 0 END,
             CASE WHEN t.closed_until > $2::double precision + $6::double precision THEN 0 ELSE t.closed_until END) + $3::double precision,
           closed_until = CASE WHEN t.closed_until > $2::double precision + $6::double precision THEN 0 ELSE t.closed_until END,
           booked_at = CASE WHEN t.booked_at > $2::double precision + $5::double precision THEN $2::double precision
             ELSE GREATEST(t.booked_at, $2::double precision) END
         RETURNING t.next_at - $3::double precision AS start`,
        [key, now, intervalMs, Math.max(now, notBefore ?? now), clockSlackMs, longestCooldownMs + clockSlackMs],
      );
      return Number(rows[0]!.start);
    },
    closeUntil: async (key, { until, now }) => {
      checkClosingTime(until);
      await query(
        `INSERT INTO ${table} AS t (key, closed_until) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET closed_until = GREATEST(CASE WHEN t.closed_until > $3 THEN 0 ELSE t.closed_until END, $2)`,
        [key, until, now + longestCooldownMs + clockSlackMs],
      );
    },
    closedUntil: async (key) => {
      const { rows } = await query(`SELECT closed_until FROM ${table} WHERE key = $1`, [key]);
      return rows.length === 0 ? 0 : Number(rows[0]!.closed_until);
    },
    // Holds are timed by the database server's clock (`serverMs`), one clock for every caller: a
    // caller's clock set forward does not make another's live hold look run out.
    hold: async (key, { holder, holdMs }) => {
      const { rowCount } = await query(
        `INSERT INTO ${table} AS t (key, holder, held_until) VALUES ($1, $2, ${serverMs} + $3)
         ON CONFLICT (key) DO UPDATE SET holder = $2, held_until = excluded.held_until
         WHERE t.holder IS NULL OR t.holder = $2 OR t.held_until < ${serverMs}`,
        [key, holder, holdMs],
      );
      return rowCount === 1;
    },
    renew: async (key, { holder, holdMs }) => {
      const { rowCount } = await query(
        `UPDATE ${table} SET held_until = ${serverMs} + $3 WHERE key = $1 AND holder = $2 AND held_until >= ${serverMs}`,
        [key, holder, holdMs],
      );
      return rowCount === 1;
    },
    letGo: async (key, holder) => {
      // A row that only held the key goes with it (a tool's resources are keys its arguments
      // choose: kept rows would grow without end); one that also keeps turns or a ledger is kept.
      const { rowCount } = await query(
        `DELETE FROM ${table} WHERE key = $1 AND holder = $2 AND next_at = 0 AND closed_until = 0
           AND spent_tokens = 0 AND spent_cost = 0 AND held_tokens = 0 AND held_cost = 0`,
        [key, holder],
      );
      if (rowCount === 0) await query(`UPDATE ${table} SET holder = NULL, held_until = 0 WHERE key = $1 AND holder = $2`, [key, holder]);
    },
    draw: async (key, amount, ceiling) => {
      await query(`INSERT INTO ${table} (key) VALUES ($1) ON CONFLICT (key) DO NOTHING`, [key]);
      const { rows } = await query(
        `UPDATE ${table} SET held_tokens = held_tokens + $2, held_cost = held_cost + $3
         WHERE key = $1 AND spent_tokens < $4 AND spent_tokens + held_tokens + $2 <= $4
           AND spent_cost < $5 AND spent_cost + held_cost + $3 <= $5
         RETURNING spent_tokens, spent_cost`,
        [key, amount.tokens, amount.costUsd, ceiling.tokens, ceiling.costUsd],
      );
      if (rows.length === 1) return { held: true, spent: { tokens: Number(rows[0]!.spent_tokens), costUsd: Number(rows[0]!.spent_cost) } };
      const now = await query(`SELECT spent_tokens, spent_cost FROM ${table} WHERE key = $1`, [key]);
      return { held: false, spent: { tokens: Number(now.rows[0]!.spent_tokens), costUsd: Number(now.rows[0]!.spent_cost) } };
    },
    settle: async (key, held, spent) => {
      await query(
        `UPDATE ${table} SET held_tokens = held_tokens - $2, held_cost = held_cost - $3,
           spent_tokens = spent_tokens + $4, spent_cost = spent_cost + $5 WHERE key = $1`,
        [key, held.tokens, held.costUsd, spent.tokens, spent.costUsd],
      );
    },
  };
  // Keys and tenants as the table can keep them (see `storedName`).
  return {
    bookNext: (key, request) => store.bookNext(storedName(key), request),
    bookFair: (key, request) => store.bookFair(storedName(key), { ...request, tenant: storedName(request.tenant) }),
    book: (key, request) => store.book(storedName(key), request),
    closeUntil: (key, request) => store.closeUntil(storedName(key), request),
    closedUntil: (key) => store.closedUntil(storedName(key)),
    hold: (key, request) => store.hold(storedName(key), request),
    renew: (key, request) => store.renew(storedName(key), request),
    letGo: (key, holder) => store.letGo(storedName(key), holder),
    draw: (key, amount, ceiling) => store.draw(storedName(key), amount, ceiling),
    settle: (key, held, spent) => store.settle(storedName(key), held, spent),
  };
}

/** The database server's time in ms since 1970, as a statement reads it. */
const serverMs = "(extract(epoch FROM clock_timestamp()) * 1000)::double precision";

/** Where a name starts that stands for a longer one (a name that starts so is kept so too). */
const hashedPrefix = "#sha256:";

/**
 * A key or a tenant's name as Postgres can keep it: `text` holds no NUL, and a btree key no more
 * than about 2,700 bytes (a write key's resource, chosen by a tool call's arguments, may be
 * longer). Such a name is kept as its SHA-256, where the other stores keep it whole; so is one
 * that starts like a hashed one, so no name is kept as another's.
 */
export function storedName(name: string): string {
  const keepable = !name.includes("\u0000") && Buffer.byteLength(name) <= 1024;
  if (keepable && !name.startsWith(hashedPrefix)) return name;
  return hashedPrefix + createHash("sha256").update(name).digest("hex");
}

/** Runs each statement that makes the store's tables and function; one another process ran first is done. */
async function setUp(pool: PostgresPool, statements: string[]): Promise<void> {
  for (const statement of statements)
    try {
      await pool.query(statement);
    } catch (error) {
      // Two processes making the same thing at once: the other one made it (a table racing its
      // twin can also fail on its row type: 42710, "type … already exists").
      const code = (error as { code?: string }).code;
      if (!["23505", "42P07", "42701", "42710", "42723"].includes(code ?? "")) throw error;
    }
}

/** The names `setupStatements` makes. */
interface StoreNames {
  table: string;
  tenants: string;
  fairTurn: string;
  nextTurn: string;
}

/**
 * The state table, the tenants' claims, and `decideFairTurn` (src/core/fair-turn.ts) and
 * `decideNextTurn` (src/core/next-turn.ts) as functions: one call books a turn atomically (the
 * line's row locked, the claims read after). `test/limits/fair-turn-stores.test.ts` checks them
 * against the TypeScript rules.
 */
function setupStatements({ table, tenants, fairTurn, nextTurn }: StoreNames): string[] {
  return [
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, next_at double precision NOT NULL DEFAULT 0,
       closed_until double precision NOT NULL DEFAULT 0, holder text, held_until double precision NOT NULL DEFAULT 0,
       spent_tokens double precision NOT NULL DEFAULT 0, spent_cost double precision NOT NULL DEFAULT 0,
       held_tokens double precision NOT NULL DEFAULT 0, held_cost double precision NOT NULL DEFAULT 0,
       last_mark double precision NOT NULL DEFAULT 0)`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS last_mark double precision NOT NULL DEFAULT 0`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS booked_at double precision NOT NULL DEFAULT 0`,
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${tenants} (line text NOT NULL, tenant text NOT NULL, mark double precision NOT NULL,
       since double precision NOT NULL, until_at double precision NOT NULL, PRIMARY KEY (line, tenant))`,
    `CREATE FUNCTION ${nextTurn}(p_key text, p_interval double precision, p_now double precision, p_slack double precision,
       p_longest double precision)
       RETURNS TABLE (start double precision, retry_at double precision)
     LANGUAGE plpgsql AS $$
     DECLARE
       v_line ${table}%ROWTYPE;
       v_start double precision;
     BEGIN
       INSERT INTO ${table} (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
       SELECT * INTO v_line FROM ${table} WHERE key = p_key FOR UPDATE;
       IF v_line.closed_until > p_now + p_longest + p_slack THEN
         v_line.closed_until := 0;
       END IF;
       IF v_line.next_at - p_interval > GREATEST(p_now + p_interval, v_line.closed_until) + p_slack THEN
         v_line.next_at := p_now;
       END IF;
       IF v_line.next_at - p_interval > p_now THEN
         RETURN QUERY SELECT NULL::double precision, v_line.next_at - p_interval;
       ELSE
         v_start := GREATEST(p_now, v_line.next_at, v_line.closed_until);
         UPDATE ${table} SET next_at = v_start + p_interval, closed_until = v_line.closed_until WHERE key = p_key;
         RETURN QUERY SELECT v_start, NULL::double precision;
       END IF;
     END $$`,
    `CREATE FUNCTION ${fairTurn}(p_key text, p_tenant text, p_interval double precision, p_now double precision,
       p_step double precision, p_claim double precision, p_slack double precision, p_longest double precision)
       RETURNS TABLE (start double precision, retry_at double precision)
     LANGUAGE plpgsql AS $$
     DECLARE
       v_line ${table}%ROWTYPE;
       v_own ${tenants}%ROWTYPE;
       v_mark double precision;
       v_since double precision;
       v_until double precision := 0;
       v_latest double precision;
       v_start double precision;
       v_retry double precision;
     BEGIN
       INSERT INTO ${table} (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
       SELECT * INTO v_line FROM ${table} WHERE key = p_key FOR UPDATE;
       IF v_line.closed_until > p_now + p_longest + p_slack THEN
         v_line.closed_until := 0;
       END IF;
       IF v_line.next_at - p_interval > GREATEST(p_now + p_interval, v_line.closed_until) + p_slack THEN
         v_line.next_at := p_now;
       END IF;
       v_latest := GREATEST(p_now + p_interval, v_line.closed_until) + p_claim + p_slack;
       SELECT * INTO v_own FROM ${tenants} WHERE line = p_key AND tenant = p_tenant;
       IF FOUND AND v_own.until_at > p_now AND v_own.until_at <= v_latest THEN
         v_mark := v_own.mark; v_since := v_own.since; v_until := v_own.until_at;
       ELSE
         v_mark := GREATEST(COALESCE(v_own.mark, 0), v_line.last_mark); v_since := p_now;
       END IF;
       IF v_line.next_at - p_interval <= p_now AND NOT EXISTS (SELECT 1 FROM ${tenants} WHERE line = p_key AND tenant <> p_tenant
           AND until_at > p_now AND until_at <= v_latest AND (mark < v_mark OR (mark = v_mark AND since < v_since))) THEN
         v_start := GREATEST(p_now, v_line.next_at, v_line.closed_until);
         UPDATE ${table} SET next_at = v_start + p_interval, last_mark = v_mark, closed_until = v_line.closed_until WHERE key = p_key;
         INSERT INTO ${tenants} (line, tenant, mark, since, until_at) VALUES (p_key, p_tenant, v_mark + p_step, p_now, v_start + p_interval)
           ON CONFLICT (line, tenant) DO UPDATE SET mark = EXCLUDED.mark, since = EXCLUDED.since, until_at = EXCLUDED.until_at;
         DELETE FROM ${tenants} WHERE line = p_key AND tenant <> p_tenant AND (until_at <= p_now OR until_at > v_latest)
           AND mark <= v_mark;
         RETURN QUERY SELECT v_start, NULL::double precision;
       ELSE
         IF v_line.next_at - p_interval <= p_now THEN
           v_retry := GREATEST(v_line.next_at, v_line.closed_until, p_now + p_interval);
         ELSE
           v_retry := v_line.next_at - p_interval;
         END IF;
         INSERT INTO ${tenants} (line, tenant, mark, since, until_at) VALUES (p_key, p_tenant, v_mark, v_since, GREATEST(v_until, v_retry + p_claim))
           ON CONFLICT (line, tenant) DO UPDATE SET mark = EXCLUDED.mark, since = EXCLUDED.since, until_at = EXCLUDED.until_at;
         RETURN QUERY SELECT NULL::double precision, v_retry;
       END IF;
     END $$`,
  ];
}
