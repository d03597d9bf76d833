// What a provider limit and a write key add to each call, per backend (issue 58): the store
// operations a call makes when it need not wait, measured one call after another (the cost a
// call pays; a rate's waits are the rate's, not the limiter's).
//   turn: a limit with a cooldown and no rate — one booking in the store per call.
//   turn + release, 8 at once: the same with 8 callers in flight (throughput).
//   book / tenant book: the store's booking of a turn on a line with a rate, plain (`bookNext`,
//     `book` before one turn ahead was the rule) and by the tenants' rule (`bookFair`, two tenants taking turns), each call a turn after the
//     last so none is refused: what the tenants' rule adds to a call that need not wait.
//   tokens book: a booking on a tokens' line (`book`: a call's worst case, the line moved back by a
//     clock set back since it was booked).
//   hold: a write key held and let go (`resourceLocks`) — two store operations per call.
// Backends: memory; a SQLite file; PostgreSQL and Redis when PLANLOOP_POSTGRES_URL and
// PLANLOOP_REDIS_URL are set (source /tmp/svc.env). Run: npm run bench:limits   (CALLS=2000)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { memoryLimitStore, providerLimit, resourceLocks, type LimitBackend } from "../src/index.js";
import { sharedLimitStore } from "../src/limits/shared-store.js";
import { sqliteLimitStore } from "../src/stores/sqlite/index.js";

const calls = Number(process.env.CALLS ?? 2000);
const signal = new AbortController().signal;

async function measure(name: string, shared: LimitBackend | undefined): Promise<void> {
  const tag = `bench-${process.pid}-${Date.now()}`;
  const limit = providerLimit({ name: tag, ...(shared === undefined ? {} : { shared }) });
  const locks = resourceLocks({ shared: shared ?? memoryLimitStore() });
  // Warm: the connection, the table.
  for (let index = 0; index < 20; index += 1) (await limit.turn(signal))();
  let started = performance.now();
  for (let index = 0; index < calls; index += 1) (await limit.turn(signal))();
  const turn = ((performance.now() - started) * 1000) / calls;
  started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let index = 0; index < calls / 8; index += 1) (await limit.turn(signal))();
    }),
  );
  const parallel = ((performance.now() - started) * 1000) / calls;
  const store = sharedLimitStore(shared);
  const base = Date.now();
  // Warm: both statements prepared (or scripts loaded), the code paths compiled.
  for (let index = 0; index < 200; index += 1) {
    await store.bookNext(`${tag}-warm`, { intervalMs: 10, now: base + index * 10 });
    await store.bookFair(`${tag}-warm`, { tenant: "warm", intervalMs: 10, now: base + index * 10, step: 1, claimMs: 1000 });
  }
  started = performance.now();
  for (let index = 0; index < calls; index += 1) await store.bookNext(`${tag}-plain`, { intervalMs: 10, now: base + index * 10 });
  const book = ((performance.now() - started) * 1000) / calls;
  started = performance.now();
  for (let index = 0; index < calls; index += 1)
    await store.bookFair(`${tag}-fair`, {
      tenant: index % 2 === 0 ? "a" : "b",
      intervalMs: 10,
      now: base + index * 10,
      step: 1,
      claimMs: 1000,
    });
  const tenantBook = ((performance.now() - started) * 1000) / calls;
  started = performance.now();
  for (let index = 0; index < calls; index += 1) await store.book(`${tag}-tokens`, { intervalMs: 10, now: base + index * 10 });
  const tokensBook = ((performance.now() - started) * 1000) / calls;
  started = performance.now();
  for (let index = 0; index < calls; index += 1) {
    const held = await locks.hold(`${tag}-table`, signal);
    held.release();
  }
  // The last release lets go in the store after it returns: wait for it to be free again.
  (await locks.hold(`${tag}-table`, signal)).release();
  const hold = ((performance.now() - started) * 1000) / (calls + 1);
  console.log(
    `${name.padEnd(10)} turn ${turn.toFixed(1).padStart(7)} µs/call   8 at once ${parallel.toFixed(1).padStart(7)} µs/call   book ${book.toFixed(1).padStart(7)} µs   tenant book ${tenantBook.toFixed(1).padStart(7)} µs   tokens book ${tokensBook.toFixed(1).padStart(7)} µs   hold ${hold.toFixed(1).padStart(7)} µs/call`,
  );
}

console.log(`${calls} calls each, Node ${process.version}`);
await measure("memory", undefined);
await measure("sqlite", sqliteLimitStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-bench-limits-")), "limits.sqlite") }));
if (process.env.PLANLOOP_POSTGRES_URL !== undefined) {
  // A database of its own, dropped after.
  const database = `planloop_bench_limits_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.PLANLOOP_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(process.env.PLANLOOP_POSTGRES_URL);
  url.pathname = `/${database}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
  try {
    await measure("postgres", { postgres: pool });
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE ${database}`);
    await admin.end();
  }
} else console.log("postgres   skipped: PLANLOOP_POSTGRES_URL is not set");
if (process.env.PLANLOOP_REDIS_URL !== undefined) {
  const redis = new Redis(process.env.PLANLOOP_REDIS_URL);
  await measure("redis", { redis });
  redis.disconnect();
} else console.log("redis      skipped: PLANLOOP_REDIS_URL is not set");
