import { decideFairTurn, type FairTurnRequest, type TenantClaim } from "../../core/fair-turn.js";
import { clockSlackMs, decideNextTurn, longestCooldownMs, type NextTurnRequest } from "../../core/next-turn.js";
import { checkClosingTime, type LimitStore } from "../../core/limit-store.js";
import { createPrivately, driverOf } from "./sqlite-store.js";

export interface SqliteLimitStoreOptions {
  /** The SQLite file every process shares (it may be the runs' own file: the table is apart). */
  path: string;
  /** As `sqliteStore`'s: node:sqlite where Node has it, else better-sqlite3. */
  driver?: "node:sqlite" | "better-sqlite3" | undefined;
}

/**
 * Limits' and write keys' state in a SQLite file, for processes on one machine that share it
 * (`providerLimit({ shared: sqliteLimitStore({ path }) })`, `resourceLocks({ shared: … })`):
 * one row per key in `planloop_limit_state`; every operation is one statement, atomic in the file.
 *
 * ```ts
 * import { sqliteLimitStore } from "planloop/sqlite";
 * const shared = sqliteLimitStore({ path: "runs.sqlite" });
 * ```
 */
export function sqliteLimitStore(options: SqliteLimitStoreOptions): LimitStore {
  if (typeof options?.path !== "string" || options.path === "") throw new TypeError("sqliteLimitStore needs { path }: the database file");
  createPrivately(options.path);
  const db = driverOf(options.driver)(options.path, false);
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  // A commit need not wait for the disk (safe in WAL mode: a crash loses the last turns booked,
  // worth nothing after it, and never damages the file the runs may share).
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE IF NOT EXISTS planloop_limit_state (key TEXT PRIMARY KEY, next_at REAL NOT NULL DEFAULT 0,
    closed_until REAL NOT NULL DEFAULT 0, holder TEXT, held_until REAL NOT NULL DEFAULT 0,
    spent_tokens REAL NOT NULL DEFAULT 0, spent_cost REAL NOT NULL DEFAULT 0, held_tokens REAL NOT NULL DEFAULT 0, held_cost REAL NOT NULL DEFAULT 0)`);
  // Tenants' claims on a line's turns (`bookFair`).
  db.exec(`CREATE TABLE IF NOT EXISTS planloop_limit_tenants (line TEXT NOT NULL, tenant TEXT NOT NULL, mark REAL NOT NULL,
    since REAL NOT NULL, until_at REAL NOT NULL, PRIMARY KEY (line, tenant)) WITHOUT ROWID`);
  // The line's last mark, how long a hold was taken for, and the clock a line was last booked at
  // (added to a table an older planloop made).
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('planloop_limit_state')").all();
  for (const column of ["last_mark", "held_ms", "booked_at"])
    if (!columns.some(({ name }) => name === column)) {
      try {
        db.exec(`ALTER TABLE planloop_limit_state ADD COLUMN ${column} REAL NOT NULL DEFAULT 0`);
      } catch (error) {
        // Another process added it first.
        if (!/duplicate column/i.test(String((error as Error).message))) throw error;
      }
    }
  // `decideBooking` (src/core/booked-line.ts): every right-hand side reads the row as it was.
  const book = db.prepare<
    { key: string; now: number; interval: number; notBefore: number; slack: number; longest: number },
    { start: number }
  >(
    `INSERT INTO planloop_limit_state AS t (key, next_at, booked_at) VALUES (:key, :notBefore + :interval, :now)
     ON CONFLICT (key) DO UPDATE SET
       next_at = max(:notBefore, t.next_at - (CASE WHEN t.booked_at > :now + :slack THEN t.booked_at - :now ELSE 0 END),
         CASE WHEN t.closed_until > :now + :longest + :slack THEN 0 ELSE t.closed_until END) + :interval,
       closed_until = CASE WHEN t.closed_until > :now + :longest + :slack THEN 0 ELSE t.closed_until END,
       booked_at = CASE WHEN t.booked_at > :now + :slack THEN :now ELSE max(t.booked_at, :now) END
     RETURNING next_at - :interval AS start`,
  );
  const close = db.prepare<{ key: string; until: number; now: number; bound: number }>(
    `INSERT INTO planloop_limit_state AS t (key, closed_until) VALUES (:key, :until)
     ON CONFLICT (key) DO UPDATE SET closed_until = max(CASE WHEN t.closed_until > :now + :bound THEN 0 ELSE t.closed_until END, :until)`,
  );
  const closed = db.prepare<[string], { closed_until: number }>("SELECT closed_until FROM planloop_limit_state WHERE key = ?");
  // Holds are timed by the machine's monotonic clock (see `monotonicMs`). A hold that ends later
  // than its own length from now was set on another boot's clock (or an older planloop's wall
  // clock): it has run out.
  const hold = db.prepare<[string, string, number, number, string, number, number]>(
    `INSERT INTO planloop_limit_state AS t (key, holder, held_until, held_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, held_until = excluded.held_until, held_ms = excluded.held_ms
     WHERE t.holder IS NULL OR t.holder = ? OR t.held_until < ? OR t.held_until > ? + t.held_ms`,
  );
  const renew = db.prepare<[number, number, string, string, number, number]>(
    `UPDATE planloop_limit_state SET held_until = ?, held_ms = ?
     WHERE key = ? AND holder = ? AND held_until >= ? AND held_until <= ? + held_ms`,
  );
  // A row that only held the key goes with it (a tool's resources are keys its arguments choose:
  // kept rows would grow without end); one that also keeps turns or a ledger is kept.
  const dropHold = db.prepare<[string, string]>(
    `DELETE FROM planloop_limit_state WHERE key = ? AND holder = ? AND next_at = 0 AND closed_until = 0
       AND spent_tokens = 0 AND spent_cost = 0 AND held_tokens = 0 AND held_cost = 0`,
  );
  const letGo = db.prepare<[string, string]>("UPDATE planloop_limit_state SET holder = NULL, held_until = 0 WHERE key = ? AND holder = ?");
  // The clock is read once the file's write lock is ours. Read before waiting for it (up to the
  // busy timeout), a now is older than a hold another process set meanwhile, which then ends
  // later than its length from that now and looks like another boot's: the key was taken from a
  // live holder.
  const holdUnderLock = db.transaction((key: string, holder: string, holdMs: number) => {
    const now = monotonicMs();
    return Number(hold.run(key, holder, now + holdMs, holdMs, holder, now, now).changes) === 1;
  });
  const renewUnderLock = db.transaction((key: string, holder: string, holdMs: number) => {
    const now = monotonicMs();
    return Number(renew.run(now + holdMs, holdMs, key, holder, now, now).changes) === 1;
  });
  const ensure = db.prepare<[string]>("INSERT INTO planloop_limit_state (key) VALUES (?) ON CONFLICT (key) DO NOTHING");
  const draw = db.prepare<
    [number, number, string, number, number, number, number, number, number],
    { spent_tokens: number; spent_cost: number }
  >(
    `UPDATE planloop_limit_state SET held_tokens = held_tokens + ?, held_cost = held_cost + ?
     WHERE key = ? AND spent_tokens < ? AND spent_tokens + held_tokens + ? <= ? AND spent_cost < ? AND spent_cost + held_cost + ? <= ?
     RETURNING spent_tokens, spent_cost`,
  );
  const ledger = db.prepare<[string], { spent_tokens: number; spent_cost: number }>(
    "SELECT spent_tokens, spent_cost FROM planloop_limit_state WHERE key = ?",
  );
  const settle = db.prepare<[number, number, number, number, string]>(
    `UPDATE planloop_limit_state SET held_tokens = held_tokens - ?, held_cost = held_cost - ?,
       spent_tokens = spent_tokens + ?, spent_cost = spent_cost + ? WHERE key = ?`,
  );
  const lineOf = db.prepare<[string], { next_at: number; closed_until: number; last_mark: number }>(
    "SELECT next_at, closed_until, last_mark FROM planloop_limit_state WHERE key = ?",
  );
  const claimsOf = db.prepare<[string], { tenant: string } & TenantClaim>(
    "SELECT tenant, mark, since, until_at AS until FROM planloop_limit_tenants WHERE line = ?",
  );
  const setLine = db.prepare<[string, number, number, number]>(
    `INSERT INTO planloop_limit_state AS t (key, next_at, last_mark, closed_until) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET next_at = excluded.next_at, last_mark = excluded.last_mark, closed_until = excluded.closed_until`,
  );
  const setClaim = db.prepare<[string, string, number, number, number]>(
    `INSERT INTO planloop_limit_tenants (line, tenant, mark, since, until_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (line, tenant) DO UPDATE SET mark = excluded.mark, since = excluded.since, until_at = excluded.until_at`,
  );
  const forget = db.prepare<[string, string]>("DELETE FROM planloop_limit_tenants WHERE line = ? AND tenant = ?");
  // Read, decide, write, in one transaction that takes the file's write lock first: the rule
  // is the plain function every store applies (a handful of µs: no SQL copy of it to keep).
  const bookFair = db.transaction((key: string, request: FairTurnRequest) => {
    const row = lineOf.get(key);
    const claims = new Map(claimsOf.all(key).map(({ tenant, mark, since, until }) => [tenant, { mark, since, until }]));
    const line = { next: row?.next_at ?? 0, closed: row?.closed_until ?? 0, lastMark: row?.last_mark ?? 0 };
    // Claims are read back by the name they were stored under, which has no NUL (`storedTenant`).
    const tenant = storedTenant(request.tenant);
    const decision = decideFairTurn(line, claims, { ...request, tenant });
    if ("start" in decision.turn) setLine.run(key, decision.line.next, decision.line.lastMark, decision.line.closed);
    setClaim.run(key, tenant, decision.claim.mark, decision.claim.since, decision.claim.until);
    for (const tenant of decision.forget) forget.run(key, tenant);
    return decision.turn;
  });
  const setNext = db.prepare<[string, number, number]>(
    `INSERT INTO planloop_limit_state AS t (key, next_at, closed_until) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET next_at = excluded.next_at, closed_until = excluded.closed_until`,
  );
  const bookNext = db.transaction((key: string, request: NextTurnRequest) => {
    const row = lineOf.get(key);
    const decision = decideNextTurn({ next: row?.next_at ?? 0, closed: row?.closed_until ?? 0, lastMark: 0 }, request);
    if ("start" in decision.turn) setNext.run(key, decision.line.next, decision.line.closed);
    return decision.turn;
  });
  return {
    bookNext: async (key, request) => bookNext.immediate(key, request),
    bookFair: async (key, request) => bookFair.immediate(key, request),
    draw: async (key, amount, ceiling) => {
      ensure.run(key);
      const row = draw.get(
        amount.tokens,
        amount.costUsd,
        key,
        ceiling.tokens,
        amount.tokens,
        ceiling.tokens,
        ceiling.costUsd,
        amount.costUsd,
        ceiling.costUsd,
      );
      const spent = row ?? ledger.get(key)!;
      return { held: row !== undefined, spent: { tokens: spent.spent_tokens, costUsd: spent.spent_cost } };
    },
    settle: async (key, held, spent) => {
      settle.run(held.tokens, held.costUsd, spent.tokens, spent.costUsd, key);
    },
    book: async (key, { intervalMs, now, notBefore }) => {
      const request = { key, now, interval: intervalMs, notBefore: Math.max(now, notBefore ?? now), slack: clockSlackMs };
      return book.get({ ...request, longest: longestCooldownMs })!.start;
    },
    closeUntil: async (key, { until, now }) => {
      checkClosingTime(until);
      close.run({ key, until, now, bound: longestCooldownMs + clockSlackMs });
    },
    closedUntil: async (key) => closed.get(key)?.closed_until ?? 0,
    hold: async (key, { holder, holdMs }) => holdUnderLock.immediate(key, holder, holdMs),
    renew: async (key, { holder, holdMs }) => renewUnderLock.immediate(key, holder, holdMs),
    letGo: async (key, holder) => {
      if (Number(dropHold.run(key, holder).changes) === 0) letGo.run(key, holder);
    },
  };
}

/**
 * The machine's monotonic clock in ms (CLOCK_MONOTONIC on Linux, the same counter in every process
 * since boot; mach and QueryPerformanceCounter likewise on macOS and Windows). A SQLite file is
 * shared by processes on one machine, so holds are judged by this clock: it never jumps, where
 * a wall clock set forward in one process would make another's live hold look run out.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** What a tenant's name is stored as: itself, or, if it holds a NUL (or starts as such names do), a marked JSON string. */
const escapedTenant = "#json:";

/**
 * A tenant's name as its claim's row keeps it. `node:sqlite` gives a text back cut at its first
 * NUL, so a tenant named `x\u0000y` never found its own claim and waited for ever (Node 22, a
 * tenant of any name is a caller's: an API token's, a schedule's). One to one: a name that holds
 * a NUL, or starts with the mark, is stored marked and as JSON, which has no NUL.
 */
export function storedTenant(name: string): string {
  return name.includes("\u0000") || name.startsWith(escapedTenant) ? `${escapedTenant}${JSON.stringify(name)}` : name;
}
