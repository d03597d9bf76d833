// Tenants' turns booked in each shared store (issue 58): Postgres runs the rule as a function and
// Redis as a Lua script, SQLite and memory call `decideFairTurn` itself. A seeded property test
// drives each store and the memory store with the same random calls — tenants' bookings (with
// weights, names like `__proto__` and with spaces), plain bookings one turn ahead (`bookNext`)
// and unbounded (`book`, some not before a later time, some giving time back), cooldowns, at random times, the clock now and then set back (a line and
// claims made before it re-based) — and finds the same answers.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { memoryLimitStore, type FairTurn, type LimitStore } from "planloop";
import { postgresLimitStore } from "../../src/limits/postgres-limit-store.js";
import { redisLimitStore } from "../../src/limits/redis-limit-store.js";
import { sqliteLimitStore } from "planloop/sqlite";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

const tenants = ["busy", "lone", "__proto__", "a b", "ü"];
const call = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("fair" as const), tenant: fc.constantFrom(...tenants), weight: fc.constantFrom(1, 2, 3) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("plain" as const),
      aheadMs: fc.constantFrom(0, 50, 5_000),
      intervalMs: fc.constantFrom(100 / 3, 3_000, -500),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("next" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("back" as const), byMs: fc.constantFrom(500, 2_100, 60_000, 3_600_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("close" as const), forMs: fc.integer({ min: 0, max: 3000 }) }) },
);
// Often less than a turn apart: a served tenant's claim holds until the next turn (33 ms).
const afterMs = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 400 }));
const calls = fc.array(fc.record({ call, afterMs }), { minLength: 1, maxLength: 40 });

async function answers(store: LimitStore, key: string, steps: Array<{ call: Call; afterMs: number }>) {
  const seen: Array<FairTurn | number> = [];
  let now = 1_765_000_000_123.25;
  for (const { call, afterMs } of steps) {
    now += afterMs;
    if (call.kind === "fair")
      seen.push(await store.bookFair(key, { tenant: call.tenant, intervalMs: 100 / 3, now, step: 1 / call.weight, claimMs: 1000 }));
    else if (call.kind === "plain") seen.push(await store.book(key, { intervalMs: call.intervalMs, now, notBefore: now + call.aheadMs }));
    else if (call.kind === "next") seen.push(await store.bookNext(key, { intervalMs: 100 / 3, now }));
    else if (call.kind === "back") now -= call.byMs;
    else await store.closeUntil(key, { until: now + call.forMs, now });
  }
  return seen;
}
const roughly = (answer: FairTurn | number) =>
  typeof answer === "number"
    ? Math.round(answer * 100)
    : "start" in answer
      ? { start: Math.round(answer.start * 100) }
      : { retryAt: Math.round(answer.retryAt * 100) };
// A tenant of weight 3 served, then its claim still held a turn later when the other asks: the
// other waits (a store that let the served claim go at once would book it).
const servedClaimHolds = [
  { call: { kind: "fair" as const, tenant: "busy", weight: 3 as const }, afterMs: 0 },
  { call: { kind: "fair" as const, tenant: "lone", weight: 1 as const }, afterMs: 1 },
  { call: { kind: "fair" as const, tenant: "busy", weight: 3 as const }, afterMs: 33 },
  { call: { kind: "fair" as const, tenant: "lone", weight: 1 as const }, afterMs: 33 },
];
// The clock set back a minute and an hour: a plain line moves back by as much; a cooldown set
// before is over, at a booking and at the next cooldown.
const plain = (aheadMs: 0 | 50 | 5_000 = 0) => ({ call: { kind: "plain" as const, aheadMs, intervalMs: 3_000 }, afterMs: 10 });
const back = (byMs: 60_000 | 3_600_000) => ({ call: { kind: "back" as const, byMs }, afterMs: 0 });
const close = (forMs: number) => ({ call: { kind: "close" as const, forMs }, afterMs: 5 });
const next = { call: { kind: "next" as const }, afterMs: 5 };
type Steps = typeof calls extends fc.Arbitrary<infer T> ? T : never;
const setBack: Steps[] = [
  [close(3_000), back(3_600_000), plain()],
  [plain(), plain(50), back(60_000), plain(), back(3_600_000), plain(5_000), plain()],
  [close(3_000), back(3_600_000), next, close(1_000), next],
  [close(3_000), back(3_600_000), close(1_000), next, plain()],
  [close(3_000), back(3_600_000), { ...servedClaimHolds[0]! }, plain()],
];
type Call =
  | { kind: "fair"; tenant: string; weight: number }
  | { kind: "plain"; aheadMs: number; intervalMs: number }
  | { kind: "next" }
  | { kind: "back"; byMs: number }
  | { kind: "close"; forMs: number };

const backends = [
  ["a SQLite file", false, async () => sqliteLimitStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-fair-")), "limits.sqlite") })],
  [
    "PostgreSQL",
    skipPostgres,
    async () => {
      const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
      closers.push(() => pool.end());
      return postgresLimitStore(pool);
    },
  ],
  [
    "Redis",
    skipRedis,
    async () => {
      const redis = new Redis(redisUrl!);
      closers.push(async () => void redis.disconnect());
      return redisLimitStore(redis, `test-${randomUUID().slice(0, 8)}:`);
    },
  ],
] as const;

describe.each(backends)("tenants' turns booked in %s", (_name, skip, storeOf) => {
  it.skipIf(skip)("answer as the rule in TypeScript does, call after call", async () => {
    const store = await storeOf();
    await fc.assert(
      fc.asyncProperty(calls, async (steps) => {
        const key = `line-${randomUUID()}`;
        const [theirs, rule] = [await answers(store, key, steps), await answers(memoryLimitStore(), key, steps)];
        // Redis keeps a plain booking's turn to the µs (a string of 3 decimals): times agree to that.
        expect(theirs.map(roughly)).toEqual(rule.map(roughly));
      }),
      { seed: 58, numRuns: 40, examples: [[servedClaimHolds], ...setBack.map((steps) => [steps])] },
    );
  });
});
