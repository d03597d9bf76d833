import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerLimit, type LimitBackend } from "../../src/index.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/index.js";

/**
 * docs/limits.md, "Tenants at a provider's limit": "the next turn goes to the tenant whose mark is
 * lowest [...] a tenant that comes while another's calls wait in ten processes gets the turn after
 * the one already booked." Tenants are API token and schedule names: anything. Guards (held).
 */
const oddNames = ["__proto__", "", "x\u0000y", "é".repeat(800), "#sha256:abc", "client:a b\tc\n"];

const pgPool = process.env.PLANLOOP_POSTGRES_URL ? new pg.Pool({ connectionString: process.env.PLANLOOP_POSTGRES_URL }) : undefined;
const redis = process.env.PLANLOOP_REDIS_URL ? new Redis(process.env.PLANLOOP_REDIS_URL) : undefined;
const table = `outside_d_tenants_${process.pid}`;
afterAll(async () => {
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${table}_tenants`);
  await pgPool?.end();
  redis?.disconnect();
});
const sqlitePath = join(mkdtempSync(join(tmpdir(), "outside-d-tenants-")), "limits.sqlite");
const stores: Array<[string, () => LimitBackend | undefined]> = [
  ["memory", () => undefined],
  ["sqlite", () => sqliteLimitStore({ path: sqlitePath })],
  ...(redis ? [["redis", () => ({ redis })] as [string, () => LimitBackend]] : []),
  ...(pgPool ? [["postgres", () => ({ postgres: pgPool, tableName: table })] as [string, () => LimitBackend]] : []),
];

describe.each(stores)("a tenant with an odd name at a limit on %s (guards)", (_store, backend) => {
  it.each(oddNames.map((name) => [JSON.stringify(name).slice(0, 30), name]))(
    "(guard, held) %s gets the turn after the one already booked",
    async (_label, odd) => {
      const limit = providerLimit({ name: `odd-${Math.random()}`, rate: { requests: 1, perMs: 300 }, shared: backend() });
      const served: string[] = [];
      const take = async (tenant: string) => {
        const release = await limit.turn(undefined, undefined, { tenant });
        served.push(tenant);
        release();
      };
      const busy = Array.from({ length: 4 }, () => take("busy"));
      await new Promise((resolve) => setTimeout(resolve, 40)); // busy's first turn went, its second is booked
      await Promise.all([...busy, take(odd)]);
      // Turns of 300 ms: a wake-up more than a turn late (which books a later turn) is unlikely even on a busy machine.
      expect(served.indexOf(odd)).toBeLessThanOrEqual(2);
    },
  );
});
