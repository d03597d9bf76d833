// Outside review (flow control): tenants, write keys and ledgers are named by their callers — a
// tenant a program passes on, a resource a tool call's arguments choose. SQLite and Redis keep any
// name; Postgres refused a name holding NUL ("invalid byte sequence") or longer than a btree key
// (about 2,700 bytes), so that tenant's every call, or that tool call, failed on a database error.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { LimitStore } from "../../src/core/limit-store.js";
import { storedName } from "../../src/limits/postgres-limit-store.js";
import { sharedLimitStore } from "../../src/limits/shared-store.js";
import { sqliteLimitStore } from "../../src/stores/sqlite/sqlite-limit-store.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

const long = randomBytes(3000).toString("base64");
const names = ["", "__proto__", "a' OR 1=1 --", "x]] redis.call('FLUSHALL') --[[", "ü🎉", "nul\u0000inside", long, `${long}2`];

/** Every store operation with each odd name: a tenant's turn, a write key, a day's ledger; no two names share a state. */
async function everyNameKept(store: LimitStore) {
  // Keys of this run only: a Redis the tests share keeps a ledger two days.
  const run = randomBytes(6).toString("hex");
  const line = `provider:odd-${run}`;
  for (const [index, name] of names.entries()) {
    const turn = await store.bookFair(line, { tenant: name, intervalMs: 1, now: Date.now() + index * 10, step: 1, claimMs: 1000 });
    expect(turn).toHaveProperty("start");
    expect(await store.hold(`resource:${run}:${name}`, { holder: "me", holdMs: 1000 })).toBe(true);
    expect(await store.hold(`resource:${run}:${name}`, { holder: "other", holdMs: 1000 })).toBe(false);
    await store.letGo(`resource:${run}:${name}`, "me");
    const ledger = `budget:${name}:${run}`;
    expect(await store.draw(ledger, { tokens: index + 1, costUsd: 0 }, { tokens: 100, costUsd: 1 })).toMatchObject({ held: true });
    await store.settle(ledger, { tokens: index + 1, costUsd: 0 }, { tokens: index + 1, costUsd: 0 });
  }
  // Each ledger saw its own call only (two long names never share a row).
  for (const [index, name] of names.entries())
    expect((await store.draw(`budget:${name}:${run}`, { tokens: 0, costUsd: 0 }, { tokens: 100, costUsd: 1 })).spent.tokens).toBe(
      index + 1,
    );
}

describe("odd names in a shared limit store", () => {
  it("SQLite keeps them", async () => {
    await everyNameKept(sqliteLimitStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-odd-names-")), "limits.sqlite") }));
  });

  it.skipIf(skipRedis)("Redis keeps them", async () => {
    const redis = new Redis(redisUrl!);
    closing.push(async () => redis.disconnect());
    await everyNameKept(sharedLimitStore({ redis }));
  });

  it.skipIf(skipPostgres)("Postgres keeps them (a name it cannot index or hold as text by its SHA-256)", async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
    closing.push(() => pool.end());
    await everyNameKept(sharedLimitStore({ postgres: pool }));
    // A name that looks hashed is hashed too: it is never kept as the long name it imitates.
    expect(storedName(storedName(long))).not.toBe(storedName(long));
    expect(storedName("plain")).toBe("plain");
  });
});
