// A provider's limit shared by every call (issue 58), against a provider on 127.0.0.1 that
// allows 5 requests a second and answers 429 with Retry-After beyond: with the rate declared,
// 20 parallel calls never go past it; with only the cooldown, a 429 closes the provider for
// every sibling call, so it sees no more 429s than the calls already in flight, where calls
// backing off on their own hit it again and again. Two limits on one Redis (two processes'
// clients) draw from one bucket. Real time, with margins: these measure a rate.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { openAICompatible, providerLimit, runAgent, type PlanloopEvent, type ProviderLimit } from "planloop";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A provider that allows `perSecond` requests in each whole second, and answers 429 (Retry-After: the rest of the second) beyond. */
async function strictProvider(perSecond: number) {
  const seen: Array<{ at: number; status: number }> = [];
  const counts = new Map<number, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const now = Date.now();
      const second = Math.floor(now / 1000);
      const count = (counts.get(second) ?? 0) + 1;
      counts.set(second, count);
      if (count > perSecond) {
        seen.push({ at: now, status: 429 });
        const rest = 1000 - (now % 1000);
        response
          .writeHead(429, { "content-type": "application/json", "retry-after-ms": String(rest) })
          .end('{"error":{"message":"slow down"}}');
        return;
      }
      seen.push({ at: now, status: 200 });
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

async function calls(baseURL: string, count: number, limit: ProviderLimit | undefined) {
  const model = openAICompatible({ baseURL, model: "m", maxRetries: 20, retryDelayMs: 50, limit });
  const request = {
    messages: [{ role: "user" as const, content: "hi" }],
    tools: [],
    step: 0,
    signal: new AbortController().signal,
    purpose: "act" as const,
  };
  return Promise.all(Array.from({ length: count }, () => model.generate(request)));
}

/** The most requests the provider answered 200 in any one second. */
const busiestSecond = (seen: Array<{ at: number; status: number }>) => {
  const per = new Map<number, number>();
  for (const { at, status } of seen) if (status === 200) per.set(Math.floor(at / 1000), (per.get(Math.floor(at / 1000)) ?? 0) + 1);
  return Math.max(...per.values());
};

describe("a provider's limit, shared by every call", () => {
  it("with its rate declared, 12 parallel calls never go past it: no 429 at all", async () => {
    const provider = await strictProvider(5);
    // Spread evenly over each window, a little under its rate (our windows are not its seconds).
    const limit = providerLimit({ name: "strict", rate: { requests: 4, perMs: 1000 } });
    const answers = await calls(provider.baseURL, 12, limit);
    expect(answers).toHaveLength(12);
    expect(provider.seen.filter((each) => each.status === 429)).toEqual([]);
    expect(busiestSecond(provider.seen)).toBeLessThanOrEqual(5);
  });

  it("with only the cooldown, a 429 closes the provider for every sibling: no more 429s than calls in flight", async () => {
    const alone = await strictProvider(5);
    await calls(alone.baseURL, 20, undefined);
    const backingOffAlone = alone.seen.filter((each) => each.status === 429).length;

    const shared = await strictProvider(5);
    await calls(shared.baseURL, 20, providerLimit({ name: "cooled", concurrent: 4 }));
    const cooled = shared.seen.filter((each) => each.status === 429);
    // Each 429 wave is at most the 4 calls in flight, and waves come at most once a second.
    const waves = new Set(cooled.map((each) => Math.floor(each.at / 1000))).size;
    expect(cooled.length).toBeLessThanOrEqual(4 * waves);
    expect(cooled.length).toBeLessThan(backingOffAlone);
    expect(shared.seen.filter((each) => each.status === 200)).toHaveLength(20);
  });

  it.skipIf(skipRedis)(
    "two limits on one Redis (two processes' clients) draw from one bucket",
    async () => {
      const provider = await strictProvider(5);
      const clients = [new Redis(redisUrl!), new Redis(redisUrl!)];
      try {
        const name = `shared-${Date.now()}`;
        const limits = clients.map((redis) => providerLimit({ name, rate: { requests: 4, perMs: 1000 }, shared: { redis } }));
        await Promise.all(limits.map((limit) => calls(provider.baseURL, 6, limit)));
        expect(provider.seen.filter((each) => each.status === 429)).toEqual([]);
        expect(busiestSecond(provider.seen)).toBeLessThanOrEqual(5);
      } finally {
        for (const client of clients) client.disconnect();
      }
    },
    60_000,
  );

  it("a call that waits for its turn says so in the run's events: which limit, and until when", async () => {
    const provider = await strictProvider(5);
    const limit = providerLimit({ name: "paced", rate: { requests: 2, perMs: 1000 } });
    const model = openAICompatible({ baseURL: provider.baseURL, model: "m", limit });
    const events: PlanloopEvent[] = [];
    const started = Date.now();
    const results = await Promise.all(
      [1, 2, 3].map(() => runAgent({ model, tools: [], task: "hi", onEvent: (event) => void events.push(event) })),
    );
    expect(results.map((result) => result.status)).toEqual(["completed", "completed", "completed"]);
    const waits = events.filter((event) => event.type === "model-waiting");
    // The first call goes at once; the two after it wait half a second and a second for their turns.
    expect(waits).toHaveLength(2);
    for (const wait of waits) {
      expect(wait).toMatchObject({ limit: "paced", purpose: "act" });
      expect(Date.parse(wait.until)).toBeGreaterThan(started);
    }
    const untils = waits.map((wait) => Date.parse(wait.until)).sort();
    expect(untils[1]! - untils[0]!).toBeGreaterThanOrEqual(499);
  });
});
