import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import { resourceLocks, type LimitBackend } from "../../src/index.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/index.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWriteCall } from "./helpers.js";

/**
 * docs/limits.md, "A tool's limit, and what a call writes":
 *   "`resources(args)`: what a call writes. Calls that share a resource run one at a time, first
 *    come first served, even when the plan forgot a dependency between them; calls on other
 *    resources go on side by side. A call that writes several takes them in one order, so two
 *    such calls never wait on each other in a circle."
 *
 * Resources are chosen by a call's arguments (a model's JSON, where "\ud800" is a valid escape).
 * Two names that differ only in lone UTF-16 surrogates are different resources to the process
 * (deduplicated and sorted as JS strings), but a store that keeps keys as UTF-8 turns every lone
 * surrogate into U+FFFD, so both become one key in Redis and Postgres. A single call that names
 * both takes the first, then waits for the second — held by itself — forever.
 */
const names = ["row:\ud800", "row:\udbff"];

const pgPool = process.env.PLANLOOP_POSTGRES_URL ? new pg.Pool({ connectionString: process.env.PLANLOOP_POSTGRES_URL }) : undefined;
const redis = process.env.PLANLOOP_REDIS_URL ? new Redis(process.env.PLANLOOP_REDIS_URL) : undefined;
const table = `outside_d_collide_${process.pid}`;
afterAll(async () => {
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${table}_tenants`);
  await pgPool?.end();
  redis?.disconnect();
});

const stores: Array<[string, () => LimitBackend]> = [
  ["sqlite", () => sqliteLimitStore({ path: join(mkdtempSync(join(tmpdir(), "outside-d-")), "limits.sqlite") })],
  ...(redis ? [["redis", () => ({ redis })] as [string, () => LimitBackend]] : []),
  ...(pgPool ? [["postgres", () => ({ postgres: pgPool, tableName: table })] as [string, () => LimitBackend]] : []),
];

describe("write keys: one call naming resources that differ only in lone surrogates", () => {
  it.each(stores)("%s: the call runs (it does not wait on itself)", async (_name, backend) => {
    const locks = resourceLocks({ shared: backend(), holdMs: 1_000 });
    const { log, result } = await runWriteCall({
      locks,
      resources: ({ keys }) => keys,
      keys: names,
      runMs: 10,
      signal: AbortSignal.timeout(8_000),
    });
    expect(log.started, `the call never ran: ${result.status} ${"reason" in result ? String(result.reason) : ""}`).toBe(true);
  });
});
