// The stores' change feeds (watchRuns): what another process writes is heard by one feed per
// store (SQLite: one poller; Postgres: LISTEN/NOTIFY on the real server), named by top-level run;
// a lease taken or renewed is not a change; another schema's writes are not this store's.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore, type JournalEntry } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { postgresStore } from "planloop/postgres";
import { planloopClient, type StreamEvent } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";

const stores: CheckpointStore[] = [];
const servers: RunServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close({ abortRuns: true })));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
const kept = <S extends CheckpointStore>(store: S): S => (stores.push(store), store);

const plan: JournalEntry = { kind: "plan", version: 1, plan: { steps: [] } };

/** What a store's feed says, note by note, with a way to wait for the next. */
function heard(store: CheckpointStore) {
  const notes: Array<readonly string[] | "any"> = [];
  let told: () => void = () => {};
  const stop = store.watchRuns!((runIds) => (notes.push(runIds), told()));
  const next = async (): Promise<readonly string[] | "any"> => {
    while (notes.length === 0) await new Promise<void>((resolve) => (told = resolve));
    return notes.shift()!;
  };
  /** The next note that names runs (a feed that just began listening says "any" first). */
  const nextNamed = async () => {
    for (;;) {
      const note = await next();
      if (note !== "any") return note;
    }
  };
  return { next, nextNamed, stop, notes };
}

/** Writes, as another process would: a lease taken and renewed, a run and a run kept inside it written to, one finished. */
async function writes(writer: CheckpointStore, feed: ReturnType<typeof heard>) {
  await writer.createRun({ runId: "quiet", entry: "executePlan", at: 1 });
  const lease = await writer.acquireLease("quiet", { owner: "other", ttlMs: 60_000, at: 1 });
  expect(lease.kind).toBe("acquired");
  await writer.renewLease("quiet", { token: (lease as { token: number }).token, ttlMs: 60_000, at: 2 });
  await writer.createRun({ runId: "report", entry: "executePlan", at: 1 });
  await writer.append("report", [plan], 3);
  // The lease was no change: the first run named is the one written to.
  expect(await feed.nextNamed()).toEqual(["report"]);
  await writer.createRun({ runId: "report/inner", entry: "runAgent", at: 4 });
  await writer.append("report/inner", [plan], 4);
  expect(await feed.nextNamed()).toEqual(["report"]);
  await writer.finishRun("report", { status: "completed" }, 5);
  expect(await feed.nextNamed()).toEqual(["report"]);
}

describe("a store's change feed", () => {
  it("memory: its own writes, by top-level run", async () => {
    const store = kept(memoryStore());
    const feed = heard(store);
    await writes(store, feed);
    feed.stop();
    await store.append("quiet", [plan], 9);
    expect(feed.notes).toEqual([]);
  });

  it("SQLite: another process's writes, heard by one poller; stopped with its last listener", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-feed-")), "runs.sqlite");
    const reader = kept(sqliteStore({ path, feedMs: 10 }));
    const writer = kept(sqliteStore({ path }));
    const feed = heard(reader);
    const second = heard(reader);
    await writes(writer, feed);
    expect(await second.nextNamed()).toEqual(["report"]);
    feed.stop();
    second.stop();
    expect(() => sqliteStore({ path, feedMs: 0 })).toThrow(/feedMs/);
  });

  it("SQLite: a store nobody follows numbers no writes (the trigger is made by the first listener); a read-only one has no feed", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-feed-")), "runs.sqlite");
    const writer = kept(sqliteStore({ path }));
    await writer.createRun({ runId: "before", entry: "executePlan", at: 1 });
    await writer.append("before", [plan], 2);
    const count = () => {
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare("SELECT count(*) AS n FROM planloop_changes").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(count()).toBe(0);
    const readOnly = kept(sqliteStore({ path, readonly: true }));
    expect(readOnly.watchRuns).toBeUndefined();
    const reader = kept(sqliteStore({ path, feedMs: 10 }));
    const feed = heard(reader);
    await writes(writer, feed);
    expect(count()).toBeGreaterThan(0);
    feed.stop();
  });
});

describe.skipIf(skipPostgres)("Postgres: LISTEN/NOTIFY on the real server", () => {
  it("another process's writes are notified at commit, by top-level run; another schema's are not", async () => {
    const connectionString = await freshDatabase();
    const reader = kept(postgresStore({ connectionString }));
    const writer = kept(postgresStore({ connectionString }));
    const feed = heard(reader);
    // Listening first, the feed says "any": what was written before it listened is looked at.
    expect(await feed.next()).toBe("any");
    // Runs of the same ids in a schema of their own, on the same database: not this store's.
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query("CREATE SCHEMA elsewhere");
    await admin.end();
    const url = new URL(connectionString);
    url.searchParams.set("options", "-c search_path=elsewhere");
    const stranger = kept(postgresStore({ connectionString: url.toString() }));
    await stranger.createRun({ runId: "report", entry: "executePlan", at: 1 });
    await stranger.append("report", [plan], 2);
    await writes(writer, feed);
    expect(feed.notes).toEqual([]);
    feed.stop();
  });

  it("a stream on a Postgres store gets another process's write from the feed alone (no polling)", async () => {
    const connectionString = await freshDatabase();
    const served = kept(postgresStore({ connectionString }));
    const other = kept(postgresStore({ connectionString }));
    await other.createRun({ runId: "report", entry: "executePlan", at: 1 });
    await other.append("report", [plan], 1);
    // A stream that polled would wait ten minutes for its next look.
    const server = await startRunServer({ store: served, tools: [], pollMs: 600_000 });
    servers.push(server);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const events: StreamEvent[] = [];
    let seen: () => void = () => {};
    const following = (async () => {
      for await (const event of client.stream("report")) (events.push(event), seen());
    })();
    while (events.length === 0) await new Promise<void>((resolve) => (seen = resolve));
    await other.append("report", [{ kind: "plan", version: 2, plan: { steps: [] } }], 2);
    while (events.length < 2) await new Promise<void>((resolve) => (seen = resolve));
    await other.finishRun("report", { status: "completed" }, 3);
    await following;
    expect(events.map((event) => [event.type, event.version])).toEqual([
      ["plan-created", 1],
      ["plan-created", 2],
      ["run-end", undefined],
    ]);
  });
});
