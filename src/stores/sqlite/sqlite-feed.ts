import { systemClock, type Clock } from "../../core/clock.js";
import { sharedFeed, type SharedFeed } from "../shared-feed.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * Numbers each written run in `planloop_changes`, from any process. Made when a process first
 * listens, not by the migrations: it adds a write to every commit (50–90 µs to a one-entry
 * append: bench/sqlite-feed-cost.bench.ts), which a store nobody follows should not pay. Once
 * made it stays, as another process may be listening.
 */
const numberChangedRuns = `CREATE TRIGGER IF NOT EXISTS planloop_runs_changed AFTER UPDATE OF updated_at, status ON planloop_runs
  BEGIN
    INSERT INTO planloop_changes (run_id, seq)
      VALUES (CASE WHEN instr(NEW.run_id, '/') > 0 THEN substr(NEW.run_id, 1, instr(NEW.run_id, '/') - 1) ELSE NEW.run_id END,
              (SELECT coalesce(max(seq), 0) + 1 FROM planloop_changes))
      ON CONFLICT (run_id) DO UPDATE SET seq = excluded.seq;
  END`;

/**
 * The SQLite store's change feed: one poller per store, however many listen. Each look is one
 * indexed read of `planloop_changes` for the runs numbered since the last look; nothing changed
 * costs that one read. A read-only store has none (it cannot make the trigger). It looks every
 * `everyMs` on `clock`'s timers (a FakeClock in tests), and not once nobody listens.
 */
export function sqliteFeed(
  db: SqliteDatabase,
  { everyMs, clock = systemClock }: { everyMs: number; clock?: Clock | undefined },
): SharedFeed {
  const since = db.prepare<[number], { run_id: string; seq: number }>(
    "SELECT run_id, seq FROM planloop_changes WHERE seq > ? ORDER BY seq",
  );
  const last = db.prepare<[], { seq: number | null }>("SELECT max(seq) AS seq FROM planloop_changes");
  return sharedFeed((tell) => {
    db.exec(numberChangedRuns);
    let seen = last.get()?.seq ?? 0;
    const look = () => {
      let rows: Array<{ run_id: string; seq: number }>;
      try {
        if (!db.open) return;
        rows = since.all(seen);
      } catch {
        return; // busy or closing: the next look finds the same rows
      }
      if (rows.length === 0) return;
      seen = rows.at(-1)!.seq;
      tell(rows.map((row) => row.run_id));
    };
    let timer: unknown;
    let stopped = false;
    const lookLater = () => {
      timer = clock.setTimeout(() => {
        look();
        if (!stopped) lookLater();
      }, everyMs);
      // The feed alone does not keep a process alive.
      (timer as { unref?: () => void }).unref?.();
    };
    lookLater();
    return () => {
      stopped = true;
      clock.clearTimeout(timer);
    };
  });
}
