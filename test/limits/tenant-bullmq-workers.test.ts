// Tenants' shares of a limit across BullMQ workers (issue 58): two worker processes share one
// provider limit in Redis (a turn every 100 ms) with the weights heavy=3, light=1; a run of each
// tenant, a 24-wide fan-out of agent steps, is sent through the queue at once. While both
// tenants have calls waiting, the provider sees about 3 of the heavy tenant's for 1 of the light
// one's, whichever worker holds which call.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "planloop";
import { bullmqRunner } from "planloop/bullmq";
import { startFixture } from "../helpers/fixture-process.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";

const servers: Server[] = [];
const workers: ChildProcess[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  for (const worker of workers.splice(0)) worker.kill("SIGTERM");
});

/** A provider that answers every call and notes whose it was (the step's task names its tenant) and which worker sent it (the model's name). */
async function notingProvider() {
  const seen: Array<{ tenant: string; worker: string }> = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.method === "POST") {
        const tenant = /tenant=(\w+)/.exec(body)?.[1] ?? "?";
        seen.push({ tenant, worker: (JSON.parse(body) as { model: string }).model });
      }
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

function startWorkerProcess(args: string[]): Promise<void> {
  const worker = startFixture("limited-worker-process.ts", args);
  workers.push(worker.child);
  return worker.ready;
}

describe.skipIf(skipRedis)("tenants' shares of a limit in Redis, across two BullMQ workers", () => {
  it("heavy=3, light=1: about 3 of every 4 calls are the heavy tenant's while both wait", async () => {
    const provider = await notingProvider();
    const queue = freshQueue();
    const name = `provider-${randomUUID().slice(0, 8)}`;
    const args = [redisUrl!, queue, provider.baseURL, name, "10", "1000", JSON.stringify({ heavy: 3 }), "30"];
    await Promise.all([startWorkerProcess(args), startWorkerProcess(args)]);
    const runner = bullmqRunner({ connection: redisUrl!, queue });
    try {
      const fanOut = (tenant: string) => ({
        steps: Array.from({ length: 24 }, (_, index) => ({ id: index + 1, task: `tenant=${tenant} part ${index + 1}`, depends_on: [] })),
      });
      const results = await Promise.all(
        ["heavy", "light"].map((tenant) => executePlan({ plan: fanOut(tenant), tools: [], runner, concurrency: 24, tenant })),
      );
      expect(results.map((result) => result.status)).toEqual(["completed", "completed"]);
    } finally {
      await runner.close();
    }
    expect(provider.seen).toHaveLength(48);
    // Both workers called the provider.
    expect(new Set(provider.seen.map((each) => each.worker)).size).toBe(2);
    // The heavy tenant's 24 calls run out after about 32 turns: the first 24 are shared 3 : 1 (18 : 6).
    const heavy = provider.seen.slice(0, 24).filter((each) => each.tenant === "heavy").length;
    console.log(`2 BullMQ workers, heavy=3 light=1: heavy had ${heavy} of the first 24 calls`);
    expect(heavy).toBeGreaterThanOrEqual(15);
    expect(heavy).toBeLessThanOrEqual(20);
  });
});
