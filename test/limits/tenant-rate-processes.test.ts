// Tenants at a provider's rate limit across processes (issue 58): a provider on 127.0.0.1 that
// logs when each request comes; one limit of a turn every 200 ms shared in a SQLite file, in
// Postgres or in Redis. Tenant "busy" runs 10 runs of 5 independent agent steps in three
// processes (4 + 3 + 3 runs); tenant "lone" runs one run of a 6-step chain in a fourth, started
// once the busy ones are under way, pausing a seeded random time between its calls. Each of the lone tenant's calls is served within one turn
// of asking: at most one busy call reaches the provider between the lone call asking for its
// turn and the lone call arriving (a busy call that comes within half a turn of the lone one
// asking had its turn before it: the wake-up's and the request's latency); on a loaded machine
// two for a few calls, 1.5 a call at most. Without the tenants'
// rule in the store each busy process books its next turn ahead of the lone one: two or three.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFixture } from "../helpers/fixture-process.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const requests = 5;
const perMs = 1000;
const turnMs = perMs / requests;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Answers every request at once; logs who asked (the tenant its task names) and when. */
async function loggingProvider() {
  const seen: Array<{ at: number; tenant: string }> = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.method === "GET") return void response.end("warm");
      seen.push({ at: Date.now(), tenant: body.includes("lone task") ? "lone" : "busy" });
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

function startProcess(args: string[]) {
  const { ready, done, child } = startFixture("tenant-rate-process.ts", args);
  return { ready, done: done.then((line) => JSON.parse(line) as { statuses: string[]; asked: number[] }), child };
}

/** A seeded random number in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-tenant-rate-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

describe.each(backends)("two tenants at one rate limit on %s, across four processes", (backend, skip, flagOf) => {
  it.skipIf(skip)("the lone tenant's calls are served within one turn of asking, while the busy tenant's 10 runs wait", async () => {
    const provider = await loggingProvider();
    const flag = await flagOf();
    const folder = mkdtempSync(join(tmpdir(), "planloop-tenant-rate-go-"));
    const [busyGo, loneGo] = [join(folder, "busy"), join(folder, "lone")];
    const name = `provider-${randomUUID().slice(0, 8)}`;
    const common = [flag, provider.baseURL, name, String(requests), String(perMs)];
    const busy = [4, 3, 3].map((runs) => startProcess([...common, "busy", String(runs), "5", "wide", busyGo]));
    // The lone chain pauses a seeded random 0-400 ms between its calls: they ask at random moments of the turns.
    const lone = startProcess([...common, "lone", "1", "6", "chain:58", loneGo]);
    const all = [...busy, lone];
    await Promise.race([Promise.all(all.map((each) => each.ready)), Promise.all(all.map((each) => each.done))]);
    writeFileSync(busyGo, "");
    // The lone tenant comes once the busy one has its line of calls waiting.
    while (provider.seen.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(loneGo, "");
    const [loneResult, ...busyResults] = await Promise.all([lone.done, ...busy.map((each) => each.done)]);
    expect(busyResults.flatMap((result) => result.statuses)).toEqual(Array.from({ length: 10 }, () => "completed"));
    expect(loneResult.statuses).toEqual(["completed"]);

    const loneArrivals = provider.seen.filter((each) => each.tenant === "lone").map((each) => each.at);
    expect(loneArrivals).toHaveLength(6);
    const between = loneResult.asked.map((asked, index) => {
      const arrived = loneArrivals[index]!;
      return provider.seen.filter((each) => each.tenant === "busy" && each.at > asked + turnMs / 2 && each.at < arrived).length;
    });
    const waits = loneResult.asked.map((asked, index) => loneArrivals[index]! - asked);
    const busyLeft = provider.seen.filter((each) => each.tenant === "busy" && each.at > loneArrivals.at(-1)!).length;
    console.log(
      `${backend}: busy calls between a lone call asking and arriving ${JSON.stringify(between)}, waits ${JSON.stringify(waits)} ms, busy calls after the lone run ${busyLeft}`,
    );
    // The busy tenant still had calls waiting when the lone run was done: it competed throughout.
    expect(busyLeft).toBeGreaterThan(5);
    // One each when the machine is quiet; under load a call's own latency from asking to booking
    // (a first call's store statements, a process kept off the CPU) can let one more busy call
    // through: [2,1,0,1,1,1] at a load of 12. Without the tenants' rule it is two or three each.
    for (const count of between) expect(count).toBeLessThanOrEqual(2);
    expect(between.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(Math.floor(1.5 * between.length));
  });
});

describe.each(backends.slice(0, 2))("a process killed while its tenant waits at the limit on %s", (backend, skip, flagOf) => {
  it.skipIf(skip)("holds the other tenant's turns back no longer than its claim's lapse, killed at a seeded random moment", async () => {
    const provider = await loggingProvider();
    const flag = await flagOf();
    const go = join(mkdtempSync(join(tmpdir(), "planloop-tenant-rate-go-")), "go");
    const name = `provider-${randomUUID().slice(0, 8)}`;
    const common = [flag, provider.baseURL, name, String(requests), String(perMs)];
    const busy = [3, 3].map((runs) => startProcess([...common, "busy", String(runs), "5", "wide", go]));
    // Its task names no "lone task": the provider logs its calls as busy ones; they are counted apart below.
    const doomed = startProcess([...common, "doomed", "2", "5", "wide", go]);
    const all = [...busy, doomed];
    await Promise.race([Promise.all(all.map((each) => each.ready)), Promise.all(all.map((each) => each.done))]);
    writeFileSync(go, "");
    const killAfterMs = 400 + Math.floor(seeded(58)() * 1000);
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    const killedAt = Date.now();
    doomed.child.kill("SIGKILL");
    await doomed.done.catch(() => {});
    const results = await Promise.all(busy.map((each) => each.done));
    expect(results.flatMap((result) => result.statuses)).toEqual(Array.from({ length: 6 }, () => "completed"));
    // The longest time the provider heard nothing after the kill, while busy calls still waited.
    const after = provider.seen.map((each) => each.at).filter((at) => at >= killedAt);
    const gaps = [after[0]! - killedAt, ...after.slice(1).map((at, index) => at - after[index]!)];
    const longest = Math.max(...gaps);
    console.log(`${backend}: killed after ${killAfterMs} ms; ${after.length} calls after; the longest silence ${longest} ms`);
    // A claim lapses a second after its retry time (at most a turn after the kill): 1.2 s, and a
    // margin for a busy machine. A claim that never lapsed would stall the line for good.
    expect(longest).toBeLessThanOrEqual(2_500);
    expect(after.length).toBeGreaterThan(5);
  });
});
