// Losing Redis is a clear outcome, not a silent hang (issue 28 §4): on a Redis server of the
// test's own (so no other test loses its queue), a run whose jobs vanish with FLUSHALL, or
// with a restart without persistence, queues them again and completes within 10 s of the loss.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { bullmqRunner, startWorker, type RunningWorker } from "planloop/bullmq";
import { layeredPlan, remoteTools } from "../fixtures/remote-tools.js";
import { logFile, starts, until } from "../helpers/call-log.js";
import { skipRedis } from "../helpers/redis.js";

const servers: ChildProcess[] = [];
const workers: RunningWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close({ force: true })));
  for (const server of servers.splice(0)) server.kill("SIGKILL");
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** redis-server on 127.0.0.1:port, keeping nothing on disk; resolves once it answers. */
async function redisServer(port: number): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-redis-"));
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir]);
  servers.push(server);
  for (let tries = 0; ; tries += 1) {
    const client = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      await client.quit();
      break;
    } catch {
      client.disconnect();
      if (tries > 100) throw new Error("redis-server did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return server;
}

describe.skipIf(skipRedis)("losing Redis", () => {
  for (const loss of ["FLUSHALL", "a restart without persistence"] as const) {
    it(`${loss}: the lost jobs are queued again and the run completes within 10 s`, async () => {
      const port = await freePort();
      let server = await redisServer(port);
      const url = `redis://127.0.0.1:${port}`;
      const log = logFile();
      workers.push(startWorker({ connection: url, queue: "lost", tools: remoteTools(log), concurrency: 4 }));
      const runner = bullmqRunner({ connection: url, queue: "lost" });
      const running = executePlan({ plan: layeredPlan(24, 4, 150), tools: remoteTools(log), runner, concurrency: 4, runId: "lost-1" });
      await until(() => starts(log).length >= 6);
      const lostAt = Date.now();
      if (loss === "FLUSHALL") {
        const admin = new Redis(url, { maxRetriesPerRequest: null });
        await admin.flushall();
        await admin.quit();
      } else {
        server.kill("SIGKILL");
        await new Promise((resolve) => server.once("close", resolve));
        server = await redisServer(port);
      }
      const result = await running;
      const tookMs = Date.now() - lostAt;
      await runner.close();
      expect(result.status).toBe("completed");
      expect(tookMs).toBeLessThan(10_000);
    });
  }

  it("FLUSHALL under a side-effecting call: it is not queued again, its step asks what became of it; the others run again", async () => {
    const port = await freePort();
    await redisServer(port);
    const url = `redis://127.0.0.1:${port}`;
    const log = logFile();
    workers.push(startWorker({ connection: url, queue: "lost-wire", tools: remoteTools(log), concurrency: 4 }));
    const runner = bullmqRunner({ connection: url, queue: "lost-wire", recheckMs: 200 });
    const plan = {
      steps: [
        { id: "w", task: "wire", tool: "wire", args: { name: "w", ms: 1_500 } },
        { id: "r", task: "read", tool: "work", args: { name: "r", ms: 1_500 } },
      ],
    };
    const running = executePlan({ plan, tools: remoteTools(log), runner, runId: "lost-wire-1" });
    await until(() => starts(log).length >= 2);
    const admin = new Redis(url, { maxRetriesPerRequest: null });
    await admin.flushall();
    await admin.quit();
    const result = await running;
    await runner.close();
    const ran = (name: string) => starts(log).filter((line) => line.split(" ")[2] === name).length;
    expect(ran("w")).toBe(1);
    expect(ran("r")).toBe(2);
    expect(result.status).toBe("waiting");
    expect(result.steps.r!.status).toBe("succeeded");
    expect(result.pending).toMatchObject([{ id: "step:w#2", kind: "interrupted", name: "wire" }]);
    expect(result.steps.w!.error).toMatch(/lost from Redis.*may have taken effect/);
  });
});
