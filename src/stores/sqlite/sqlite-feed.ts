import { sharedFeed, type SharedFeed } from "../shared-feed.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * The SQLite store's change feed: one poller per store, however many listen. Each look is one
 * indexed read of `planloop_changes` (kept by a trigger on every write to a run's row, from any
 * process) for the runs numbered since the last look; nothing changed costs that one read.
 */
export function sqliteFeed(db: SqliteDatabase, everyMs: number): SharedFeed {
  const since = db.prepare<[number], { run_id: string; seq: number }>(
    "SELECT run_id, seq FROM planloop_changes WHERE seq > ? ORDER BY seq",
  );
  const last = db.prepare<[], { seq: number | null }>("SELECT max(seq) AS seq FROM planloop_changes");
  return sharedFeed((tell) => {
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
    const timer = setInterval(look, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  });
}
