import type { LimitStore } from "../core/limit-store.js";

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
  let made: Promise<void> | undefined;
  const ready = () =>
    (made ??= pool
      .query(
        `CREATE UNLOGGED TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, next_at double precision NOT NULL DEFAULT 0,
           closed_until double precision NOT NULL DEFAULT 0, holder text, held_until double precision NOT NULL DEFAULT 0,
           spent_tokens double precision NOT NULL DEFAULT 0, spent_cost double precision NOT NULL DEFAULT 0,
           held_tokens double precision NOT NULL DEFAULT 0, held_cost double precision NOT NULL DEFAULT 0)`,
      )
      .then(
        () => undefined,
        (error: unknown) => {
          // Two processes making the table at once: the other one made it.
          const code = (error as { code?: string }).code;
          if (code === "23505" || code === "42P07") return;
          made = undefined;
          throw error;
        },
      ));
  const query = async (sql: string, values: unknown[]) => {
    await ready();
    return pool.query(sql, values);
  };
  return {
    book: async (key, intervalMs, now) => {
      const { rows } = await query(
        `INSERT INTO ${table} AS t (key, next_at) VALUES ($1, $2::double precision + $3::double precision)
         ON CONFLICT (key) DO UPDATE SET next_at = GREATEST(t.next_at, t.closed_until, $2::double precision) + $3::double precision
         RETURNING t.next_at - $3::double precision AS start`,
        [key, now, intervalMs],
      );
      return Number(rows[0]!.start);
    },
    closeUntil: async (key, until) => {
      await query(
        `INSERT INTO ${table} AS t (key, closed_until) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET closed_until = GREATEST(t.closed_until, $2)`,
        [key, until],
      );
    },
    closedUntil: async (key) => {
      const { rows } = await query(`SELECT closed_until FROM ${table} WHERE key = $1`, [key]);
      return rows.length === 0 ? 0 : Number(rows[0]!.closed_until);
    },
    hold: async (key, holder, until, now) => {
      const { rowCount } = await query(
        `INSERT INTO ${table} AS t (key, holder, held_until) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET holder = $2, held_until = $3
         WHERE t.holder IS NULL OR t.holder = $2 OR t.held_until < $4`,
        [key, holder, until, now],
      );
      return rowCount === 1;
    },
    letGo: async (key, holder) => {
      await query(`UPDATE ${table} SET holder = NULL, held_until = 0 WHERE key = $1 AND holder = $2`, [key, holder]);
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
}
