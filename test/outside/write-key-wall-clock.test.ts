import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLimitStore, resourceLocks, type LimitBackend } from "../../src/index.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/index.js";

/**
 * docs/limits.md: "A hold is timed by the store's clock, never the callers'" and "Whether it ran
 * out is judged by one clock that every process shares and that a process's wall clock cannot
 * move". Guards (held): the contender's wall clock jumps a day forward, then a day back.
 */
const pgPool = process.env.PLANLOOP_POSTGRES_URL ? new pg.Pool({ connectionString: process.env.PLANLOOP_POSTGRES_URL }) : undefined;
const redis = process.env.PLANLOOP_REDIS_URL ? new Redis(process.env.PLANLOOP_REDIS_URL) : undefined;
const table = `outside_d_wall_${process.pid}`;
afterAll(async () => {
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${table}_tenants`);
  await pgPool?.end();
  redis?.disconnect();
});
afterEach(() => vi.restoreAllMocks());

const memory = memoryLimitStore();
const sqlitePath = join(mkdtempSync(join(tmpdir(), "outside-d-wall-")), "limits.sqlite");
const stores: Array<[string, () => LimitBackend]> = [
  ["memory", () => memory],
  ["sqlite", () => sqliteLimitStore({ path: sqlitePath })],
  ...(redis ? [["redis", () => ({ redis })] as [string, () => LimitBackend]] : []),
  ...(pgPool ? [["postgres", () => ({ postgres: pgPool, tableName: table })] as [string, () => LimitBackend]] : []),
];

describe.each(stores)("a write key on %s while a wall clock jumps (guards)", (_store, backend) => {
  it.each([
    ["a day forward", 86_400_000],
    ["a day back", -86_400_000],
  ])("(guard, held) %s: a live hold is not taken", async (_how, jump) => {
    const holder = resourceLocks({ shared: backend(), holdMs: 2_000 });
    const contender = resourceLocks({ shared: backend(), holdMs: 2_000 });
    const key = `table:wall-${Math.random()}`;
    const held = await holder.hold(key, AbortSignal.timeout(5_000));
    const real = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => real() + jump);
    try {
      const outcome = await contender.hold(key, AbortSignal.timeout(600)).then(
        (other) => (other.release(), "taken"),
        () => "waited",
      );
      expect(outcome).toBe("waited");
      expect(held.lost.aborted).toBe(false);
    } finally {
      vi.restoreAllMocks();
      held.release();
    }
  });
});
