import type * as Pg from "pg";
import { sharedFeed, type SharedFeed } from "../shared-feed.js";

/** How long the feed waits before it listens again after its connection failed (ms). */
const retryMs = 1000;

/**
 * The Postgres store's change feed: one connection of the pool LISTENs on `planloop_runs`, where a
 * trigger notifies every write to a run's row (by any process) at its commit, for the whole
 * database; notes of another schema's tables are left out. The connection is held while someone
 * listens. When it fails, the feed listens again on a new one and then says `"any"`: what was
 * written in between is looked at by every listener.
 */
export function postgresFeed(pool: Pg.Pool, migrated: () => Promise<void>): SharedFeed {
  return sharedFeed((tell) => {
    let stopped = false;
    let client: Pg.PoolClient | undefined;
    let retry: NodeJS.Timeout | undefined;
    const listen = async () => {
      let taken: Pg.PoolClient | undefined;
      try {
        await migrated();
        taken = await pool.connect();
        const { rows } = await taken.query<{ schema: string }>("SELECT current_schema() AS schema");
        const schema = rows[0]?.schema;
        taken.on("notification", (note) => {
          if (note.channel !== "planloop_runs" || note.payload === undefined) return;
          const [from, runId] = readNote(note.payload);
          if (from !== schema) return;
          tell(runId === "" ? "any" : [runId]);
        });
        taken.on("error", () => lost(taken!));
        await taken.query("LISTEN planloop_runs");
        if (stopped) return void release(taken);
        client = taken;
        // What was written before it listened (or while it was away) is looked at once by all.
        tell("any");
      } catch {
        if (taken !== undefined) release(taken, true);
        if (!stopped) later();
      }
    };
    const lost = (which: Pg.PoolClient) => {
      if (client !== which) return;
      client = undefined;
      release(which, true);
      if (!stopped) later();
    };
    const later = () => {
      retry = setTimeout(() => void listen(), retryMs);
      retry.unref();
    };
    void listen();
    return () => {
      stopped = true;
      clearTimeout(retry);
      const held = client;
      client = undefined;
      if (held !== undefined)
        held
          .query("UNLISTEN planloop_runs")
          .then(() => release(held))
          .catch(() => release(held, true));
    };
  });
}

/** A notification's payload: `[schema, top-level run id]` (JSON); anything else is no one's. */
function readNote(payload: string): [string | undefined, string] {
  try {
    const note = JSON.parse(payload) as unknown;
    if (Array.isArray(note) && typeof note[0] === "string" && typeof note[1] === "string") return [note[0], note[1]];
  } catch {
    // not ours
  }
  return [undefined, ""];
}

function release(client: Pg.PoolClient, broken = false): void {
  try {
    client.removeAllListeners("notification");
    client.release(broken);
  } catch {
    // released already
  }
}
