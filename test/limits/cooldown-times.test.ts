// A cooldown's time is a finite number of ms >= 0. `coolDown(NaN)` stored NaN as the limit's end:
// in memory every later turn started at NaN and went at once (the rate switched off for good),
// Postgres kept NaN (greater than any number there) and Redis's script failed. Infinity closed the
// limit forever. `ProviderLimit.coolDown` refuses them, and every store refuses a closing time
// that is not finite, for a caller of the store's own.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidOptionsError, providerLimit } from "../../src/index.js";
import { memoryLimitStore, type LimitStore } from "../../src/core/limit-store.js";
import { sharedLimitStore } from "../../src/limits/shared-store.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/sqlite-limit-store.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

describe("ProviderLimit.coolDown", () => {
  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, "30" as unknown as number])(
    "refuses %s and closes nothing",
    async (ms) => {
      const limit = providerLimit({ name: `times-${Math.random()}` });
      await expect(limit.coolDown(ms)).rejects.toBeInstanceOf(InvalidOptionsError);
      expect(await limit.closedFor()).toBe(0);
    },
  );

  it("closes for a finite time, and keeps a later close already set", async () => {
    const limit = providerLimit({ name: `times-${Math.random()}` });
    await limit.coolDown(0);
    expect(await limit.closedFor()).toBe(0);
    await limit.coolDown(20_000);
    await limit.coolDown(5_000);
    expect(await limit.closedFor()).toBeGreaterThan(19_000);
  });
});

/** A store refuses a closing time that is not finite, and its cooldown stays as it was. */
async function refusesOddTimes(store: LimitStore) {
  const key = `provider:times-${randomBytes(6).toString("hex")}`;
  const now = Date.now();
  const until = now + 10_000;
  await store.closeUntil(key, { until, now });
  for (const odd of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
    await expect(store.closeUntil(key, { until: odd, now })).rejects.toBeInstanceOf(InvalidOptionsError);
  expect(Math.abs((await store.closedUntil(key)) - until)).toBeLessThan(1);
}

describe("a limit store refuses a closing time that is not finite", () => {
  it("memory", async () => {
    await refusesOddTimes(memoryLimitStore());
  });

  it("SQLite", async () => {
    await refusesOddTimes(sqliteLimitStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-cooldown-times-")), "limits.sqlite") }));
  });

  it.skipIf(skipRedis)("Redis", async () => {
    const redis = new Redis(redisUrl!);
    closing.push(async () => redis.disconnect());
    await refusesOddTimes(sharedLimitStore({ redis }));
  });

  it.skipIf(skipPostgres)("Postgres", { timeout: 30_000 }, async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
    closing.push(() => pool.end());
    await refusesOddTimes(sharedLimitStore({ postgres: pool }));
  });
});
