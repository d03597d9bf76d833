import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resourceLocks, type LimitBackend } from "../../src/index.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/index.js";

/**
 * docs/limits.md: "Calls that share a resource run one at a time [...]; calls on other resources
 * go on side by side." and `resourceLocks({ shared })`: "calls in every process on the store
 * never overlap". Two `resourceLocks` on one store stand for two processes.
 *
 * Guards (these held): odd names that are different resources stay apart, equal ones collide.
 */
const long = "t:" + "x".repeat(3_000);
const pairs: Array<[string, string, string, boolean]> = [
  ["a key and a longer key it is a prefix of", "table:a", "table:ab", false],
  ["two 3 KB keys that differ only in their last character", long + "1", long + "2", false],
  ["keys that differ after a NUL", "x\u0000a", "x\u0000b", false],
  ["a key that looks like another's stored hash", "#sha256:0000", "#sha256:0001", false],
  ["é composed and decomposed (no normalisation is promised: two strings)", "row:\u00e9", "row:e\u0301", false],
  ["a 3 KB key and the same key", long, `${long}`, true],
  ["a key with a control character and itself", "row:\u0007\u001b[31m", "row:\u0007\u001b[31m", true],
];

const pgPool = process.env.PLANLOOP_POSTGRES_URL ? new pg.Pool({ connectionString: process.env.PLANLOOP_POSTGRES_URL }) : undefined;
const redis = process.env.PLANLOOP_REDIS_URL ? new Redis(process.env.PLANLOOP_REDIS_URL) : undefined;
const table = `outside_d_names_${process.pid}`;
afterAll(async () => {
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${table}_tenants`);
  await pgPool?.end();
  redis?.disconnect();
});
const sqlitePath = join(mkdtempSync(join(tmpdir(), "outside-d-names-")), "limits.sqlite");
const stores: Array<[string, () => LimitBackend]> = [
  ["sqlite", () => sqliteLimitStore({ path: sqlitePath })],
  ...(redis ? [["redis", () => ({ redis })] as [string, () => LimitBackend]] : []),
  ...(pgPool ? [["postgres", () => ({ postgres: pgPool, tableName: table })] as [string, () => LimitBackend]] : []),
];

describe.each(stores)("write-key names on %s (guards)", (_store, backend) => {
  it.each(pairs)("(guard, held) %s", async (_what, first, second, same) => {
    const one = resourceLocks({ shared: backend(), holdMs: 5_000 });
    const two = resourceLocks({ shared: backend(), holdMs: 5_000 });
    const held = await one.hold(first, AbortSignal.timeout(5_000));
    try {
      const outcome = await two.hold(second, AbortSignal.timeout(same ? 400 : 5_000)).then(
        (other) => {
          other.release();
          return "side by side";
        },
        () => "waited",
      );
      expect(outcome).toBe(same ? "waited" : "side by side");
    } finally {
      held.release();
    }
  });
});
