// Outside review (flow control): the Postgres limit store makes its tables and function at first
// use, and two processes doing that at once must both go on. Concurrent CREATE TABLE IF NOT EXISTS
// can fail with 42710 ("type … already exists", the table's row type) besides the codes the store
// took as "another process made it", so one of two processes starting on a fresh database failed
// its first call (seen in test/limits/tenant-budget.test.ts on Postgres).
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { sharedLimitStore } from "../../src/limits/shared-store.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";

const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

describe.skipIf(skipPostgres)("a fresh Postgres database, many processes' first calls at once", () => {
  it("every first call goes on, whoever made the tables", async () => {
    const failures: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const url = await freshDatabase();
      // One pool per "process": its own connections, so the statements truly race.
      const stores = Array.from({ length: 6 }, () => {
        const pool = new pg.Pool({ connectionString: url, max: 1 });
        pools.push(pool);
        return sharedLimitStore({ postgres: pool });
      });
      const calls = stores.map((store, index) =>
        index % 2 === 0
          ? store.bookFair("provider:first", { tenant: `t${index}`, intervalMs: 10, now: Date.now(), step: 1, claimMs: 1000 })
          : store.draw("budget:acme:day", { tokens: 1, costUsd: 0 }, { tokens: 100, costUsd: 1 }),
      );
      for (const outcome of await Promise.allSettled(calls))
        if (outcome.status === "rejected") failures.push(String((outcome.reason as Error).message));
    }
    expect(failures).toEqual([]);
  });
});
