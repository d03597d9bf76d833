// Outside review (flow control): a write key held in SQLite or Postgres left its row behind once
// let go, so every distinct resource a tool ever wrote (`resources: ({ id }) => [`row:${id}`]`,
// keys a model's arguments choose) stayed in `planloop_limit_state` for good.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { resourceLocks } from "../../src/limits/resource-locks.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/sqlite-limit-store.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { openSqliteFile } from "../helpers/sqlite-file.js";

const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

/** Holds and lets go of `count` distinct resources, one after another; resolves once each was let go. */
async function holdEach(locks: ReturnType<typeof resourceLocks>, count: number) {
  const signal = new AbortController().signal;
  for (let index = 0; index < count; index += 1) {
    const held = await locks.hold(`row:${index}`, signal);
    held.release();
  }
  // The release lets go in the store before the next caller here takes it: taking each again waits for that.
  for (let index = 0; index < count; index += 1) (await locks.hold(`row:${index}`, signal)).release();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("write keys let go", () => {
  it("leave no row behind in a SQLite file", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-write-key-rows-")), "limits.sqlite");
    await holdEach(resourceLocks({ shared: sqliteLimitStore({ path }) }), 50);
    const db = openSqliteFile(path);
    const { rows } = db.prepare("SELECT count(*) AS rows FROM planloop_limit_state WHERE key LIKE 'resource:%'").get() as { rows: number };
    db.close();
    expect(rows).toBe(0);
  });

  it.skipIf(skipPostgres)("leave no row behind in Postgres", async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
    pools.push(pool);
    await holdEach(resourceLocks({ shared: { postgres: pool } }), 50);
    const { rows } = await pool.query("SELECT count(*)::int AS rows FROM planloop_limit_state WHERE key LIKE 'resource:%'");
    expect(rows[0].rows).toBe(0);
  });
});
