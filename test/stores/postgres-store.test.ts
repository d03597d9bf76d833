// postgresStore against a real PostgreSQL (scripts/services.sh): the shared contract, and
// what is particular to a server many processes write to.
import { describe, expect, it } from "vitest";
import pg from "pg";
import type { JournalEntry } from "planloop";
import { postgresStore, schemaVersion } from "planloop/postgres";
import { storeConformance } from "planloop/testing";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { migrate } from "../../src/stores/postgres/migrations.js";

storeConformance("postgresStore", async () => postgresStore({ connectionString: await freshDatabase() }), {
  describe: skipPostgres ? describe.skip : describe,
  it,
  expect,
});

const start = (stepKey: string): JournalEntry => ({ kind: "step-start", stepKey, attempt: 1, idempotencyKey: `k/${stepKey}` });

describe.skipIf(skipPostgres)("postgresStore", () => {
  it("keeps every entry when several stores append to one run at once, each append whole and in its own order", async () => {
    const connectionString = await freshDatabase();
    const stores = Array.from({ length: 4 }, () => postgresStore({ connectionString }));
    await stores[0]!.createRun({ runId: "shared", entry: "executePlan", at: 1 });
    await Promise.all(
      stores.flatMap((store, writer) =>
        Array.from({ length: 25 }, (_, index) => store.append("shared", [start(`${writer}:${index}:a`), start(`${writer}:${index}:b`)], 2)),
      ),
    );
    const journal = (await stores[1]!.getRun("shared"))!.journal as Array<{ stepKey: string }>;
    expect(journal).toHaveLength(200);
    // The two entries of one append are next to each other, a before b.
    for (let index = 0; index < journal.length; index += 2) {
      expect(journal[index]!.stepKey.replace(/:a$/, ":b")).toBe(journal[index + 1]!.stepKey);
    }
    await Promise.all(stores.map((store) => store.close()));
  });

  it("takes a pool of the caller's and leaves it open on close", async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase() });
    const store = postgresStore({ pool });
    await store.createRun({ runId: "r", entry: "runAgent", at: 1 });
    await store.close();
    const { rows } = await pool.query("SELECT run_id FROM planloop_runs");
    expect(rows).toEqual([{ run_id: "r" }]);
    await pool.end();
  });

  it("brings a database made by an older planloop up to date, and refuses one made by a newer one", async () => {
    const older = await freshDatabase();
    const raw = new pg.Client({ connectionString: older });
    await raw.connect();
    await raw.query("CREATE TABLE planloop_schema (version INTEGER NOT NULL); INSERT INTO planloop_schema VALUES (0);");
    await raw.end();
    const store = postgresStore({ connectionString: older });
    expect(await store.createRun({ runId: "r", entry: "runAgent", at: 1 })).toBe("created");
    await store.close();

    const newer = await freshDatabase();
    const future = new pg.Client({ connectionString: newer });
    await future.connect();
    await future.query(
      `CREATE TABLE planloop_schema (version INTEGER NOT NULL); INSERT INTO planloop_schema VALUES (${schemaVersion + 1});`,
    );
    await future.end();
    const refused = postgresStore({ connectionString: newer });
    await expect(refused.listRuns()).rejects.toThrow(/newer than this planloop's/);
    await refused.close();
  });

  it("opens a database written before origins were kept: its runs have none, new ones keep theirs", async () => {
    const connectionString = await freshDatabase();
    const raw = new pg.Client({ connectionString });
    await raw.connect();
    await migrate(raw, schemaVersion - 2);
    await raw.query(
      "INSERT INTO planloop_runs (run_id, entry, status, created_at, updated_at) VALUES ('weekly@old', 'executePlan', 'running', 1, 1)",
    );
    await raw.end();
    const store = postgresStore({ connectionString });
    expect(await store.getRun("weekly@old")).not.toHaveProperty("origin");
    await store.createRun({ runId: "weekly@new", entry: "executePlan", at: 2, origin: { schedule: { name: "weekly", fireAt: 2 } } });
    expect((await store.listRuns({ schedule: "weekly" })).map((row) => row.runId)).toEqual(["weekly@new"]);
    await store.close();
  });

  it("opens a database written when an event's id was its key: its events read back, and one id may name events of two names", async () => {
    const connectionString = await freshDatabase();
    const raw = new pg.Client({ connectionString });
    await raw.connect();
    await migrate(raw, schemaVersion - 2);
    await raw.query(
      "INSERT INTO planloop_events (id, name, data, run_id, at, expires_at) VALUES ('42', 'export-ready', '{}', NULL, 1, 1000), ('7', 'export-ready', '{}', 'run-a', 1, 1000)",
    );
    await raw.end();
    const store = postgresStore({ connectionString });
    const log = store.events!;
    expect((await log.read({ name: "export-ready", runId: "run-a", afterSeq: 0, at: 2 })).map((event) => [event.seq, event.id])).toEqual([
      [1, "42"],
      [2, "7"],
    ]);
    expect(await log.put({ id: "42", name: "export-ready", data: {}, at: 2, expiresAt: 1000 })).toEqual({ seq: 1, duplicate: true });
    // A number is never given twice (one a conflicting insert drew stays unused): the new one comes after the old ones.
    const paid = await log.put({ id: "42", name: "invoice-paid", data: {}, at: 2, expiresAt: 1000 });
    expect(paid.seq).toBeGreaterThan(2);
    expect(paid).toMatchObject({ duplicate: false });
    expect(await log.put({ id: "42", name: "invoice-paid", data: {}, at: 2, expiresAt: 1000 })).toEqual({ seq: paid.seq, duplicate: true });
    expect(await log.put({ id: "7", name: "export-ready", data: {}, runId: "run-b", at: 2, expiresAt: 1000 })).toMatchObject({
      duplicate: false,
    });
    await store.close();
  });

  it("many stores opening one new database at once migrate it once", async () => {
    const connectionString = await freshDatabase();
    const stores = Array.from({ length: 5 }, () => postgresStore({ connectionString }));
    await Promise.all(stores.map((store, index) => store.createRun({ runId: `r${index}`, entry: "executePlan", at: index })));
    expect((await stores[0]!.listRuns()).map((run) => run.runId)).toEqual(["r4", "r3", "r2", "r1", "r0"]);
    await Promise.all(stores.map((store) => store.close()));
  });
});

describe("postgresStore options", () => {
  it("says what it needs", () => {
    expect(() => postgresStore({} as never)).toThrow(/needs either \{ connectionString \} or \{ pool \}/);
    expect(() => postgresStore({ connectionString: "postgres://x", pool: {} } as never)).toThrow(/not both/);
  });
});
