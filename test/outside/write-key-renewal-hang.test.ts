import { describe, expect, it, vi } from "vitest";
import { memoryLimitStore, resourceLocks, WriteKeyLostError, type LimitStore } from "../../src/index.js";
import { runWriteCall } from "./helpers.js";

/**
 * docs/limits.md, "Write keys, clocks and lost holds":
 *   "When it finds the hold lost (...), or renewals have not got through for `holdMs` by the
 *    process's monotonic clock (the store out of reach), the call's signal is aborted with a
 *    `WriteKeyLostError` naming the key"
 * and "A store of your own (`LimitStore`) times holds the same way".
 *
 * A store out of reach does not always answer with an error: a connection that hangs (a network
 * partition, a pg pool whose connections are all busy, an ioredis offline queue) leaves the
 * renewal pending. Renewals that never come back have not got through either.
 */
function storeWhoseRenewalsHang(): LimitStore & { renewals: number } {
  const inner = memoryLimitStore();
  const store = {
    ...inner,
    renewals: 0,
    renew: () => {
      store.renewals += 1;
      return new Promise<boolean>(() => {}); // the store never answers
    },
  };
  return store;
}

describe("write keys: renewals that never get through", () => {
  it("a call whose renewals hang past holdMs is aborted with WriteKeyLostError", async () => {
    const store = storeWhoseRenewalsHang();
    const holdMs = 300;
    const locks = resourceLocks({ shared: store, holdMs });
    const { log } = await runWriteCall({ locks, resources: ({ keys }) => keys, keys: ["table:orders"], runMs: 4_000 });
    expect(log.started).toBe(true);
    expect(store.renewals).toBeGreaterThan(0);
    // The hold ran out in the store after holdMs; the call should have been told long before 4 s.
    expect(log.abortedAt, "the call ran on for 4 s with its hold long run out").toBeDefined();
    expect(log.abortReason).toBeInstanceOf(WriteKeyLostError);
    expect(String((log.abortReason as Error).message)).toContain("table:orders");
    expect(log.abortedAt! - log.startedAt!).toBeLessThan(2_000);
  });
});

import pg from "pg";
import { afterAll } from "vitest";

const url = process.env.PLANLOOP_POSTGRES_URL;
const table = `outside_d_busy_pool_${process.pid}`;
const pools: pg.Pool[] = [];
afterAll(async () => {
  if (pools[0]) await pools[0].query(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${table}_tenants`);
  for (const pool of pools) await pool.end();
});

describe.skipIf(!url)("write keys on Postgres: a tool that writes through the same pool", () => {
  // The common shape: `saveRows` writes with the pool the locks use. A pool of one connection
  // (or all of them busy) queues the renewals behind the tool's own statement: they have not got
  // through, the hold runs out on the server's clock, and another process takes the key.
  it("the call is told its hold is lost about holdMs after its renewals stopped getting through", async () => {
    const busy = new pg.Pool({ connectionString: url, max: 1 });
    const other = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(other, busy);
    const holdMs = 600;
    const locksA = resourceLocks({ shared: { postgres: busy, tableName: table }, holdMs });
    const locksB = resourceLocks({ shared: { postgres: other, tableName: table }, holdMs });
    let takenByOtherAt: number | undefined;
    let abortedAt: number | undefined;
    let startedAt = 0;
    const { defineTool, runAgent } = await import("../../src/index.js");
    const { z } = await import("zod");
    const { oneCallModel } = await import("./helpers.js");
    const saveRows = defineTool({
      name: "saveRows",
      description: "writes rows",
      input: z.object({ table: z.string() }),
      resources: ({ table: name }) => [`table:${name}`],
      locks: locksA,
      execute: async (_args, { signal }) => {
        startedAt = performance.now();
        signal.addEventListener("abort", () => (abortedAt ??= performance.now()), { once: true });
        // Another process wants the same table meanwhile.
        const contender = locksB.hold("table:orders", AbortSignal.timeout(10_000)).then((held) => {
          takenByOtherAt = performance.now();
          held.release();
        });
        await busy.query("SELECT pg_sleep(3)"); // the tool's own long write on its pool
        await contender.catch(() => {});
        return "ok";
      },
    });
    await runAgent({ model: oneCallModel("saveRows", { table: "orders" }), tools: [saveRows], task: "save" });
    // Told in time, the call ends before its hold runs out on the server: the other process takes the key after.
    await vi.waitFor(() => expect(takenByOtherAt, "the other process never got the key").toBeDefined(), { timeout: 8_000 });
    expect(abortedAt, "the call was never told its hold was lost").toBeDefined();
    // holdMs is 600 ms and the tool's statement 3 s: told within 1.5 s, not after the write ended.
    expect(abortedAt! - startedAt).toBeLessThan(1_500);
  });
});

import { createServer, connect, type Socket } from "node:net";
import { Redis } from "ioredis";

const redisUrl = process.env.PLANLOOP_REDIS_URL;

/** A TCP proxy to Redis that can drop everything silently (a network partition: no reset, no error). */
async function partitionableProxy(target: URL) {
  let cut = false;
  const sockets: Socket[] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.push(client, upstream);
    client.on("data", (data) => void (cut || upstream.write(data)));
    upstream.on("data", (data) => void (cut || client.write(data)));
    client.on("error", () => {});
    upstream.on("error", () => {});
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    partition: () => void (cut = true),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.skipIf(!redisUrl)("write keys on Redis: a silent network partition", () => {
  it("the call whose renewals cannot reach Redis is aborted once its hold may have run out", async () => {
    const target = new URL(redisUrl!);
    const proxy = await partitionableProxy(target);
    const behind = new Redis({
      host: "127.0.0.1",
      port: proxy.port,
      password: target.password || undefined,
      db: Number(target.pathname.slice(1) || 0),
    });
    const direct = new Redis(redisUrl!);
    try {
      const holdMs = 600;
      const here = resourceLocks({ shared: { redis: behind }, holdMs });
      const elsewhere = resourceLocks({ shared: { redis: direct }, holdMs });
      const key = `table:partition-${process.pid}-${Date.now()}`;
      let abortedAt: number | undefined;
      let takenElsewhereAt: number | undefined;
      const { log } = await runWriteCall({
        locks: {
          hold: async (resource, signal) => {
            const held = await here.hold(resource, signal);
            proxy.partition(); // the network goes away right after the key was taken
            held.lost.addEventListener("abort", () => (abortedAt = performance.now()), { once: true });
            void elsewhere.hold(resource, AbortSignal.timeout(5_000)).then(
              (other) => {
                takenElsewhereAt = performance.now();
                other.release();
              },
              () => {},
            );
            return held;
          },
        },
        resources: () => [key],
        keys: [],
        runMs: 3_000,
      });
      // Told in time, the call ends before its hold runs out in Redis: the other process takes the key after.
      await vi.waitFor(() => expect(takenElsewhereAt, "another process never took the key").toBeDefined(), { timeout: 4_000 });
      expect(abortedAt ?? log.abortedAt, "the call was never told its hold was lost").toBeDefined();
    } finally {
      behind.disconnect();
      direct.disconnect();
      proxy.close();
    }
  });
});
