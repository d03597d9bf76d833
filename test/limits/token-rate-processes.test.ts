// tokensPerMinute across two processes: a provider on 127.0.0.1 that reports 50 tokens used by
// each call; two processes share one token rate (1,000 tokens in any 2 s) in a SQLite file,
// Postgres or Redis and make 10 calls each, one after another. Each call holds its worst case
// (its prompt estimate plus maxOutputTokens 400) before it goes and gives back what it did not
// use: together they go at the rate of what they really used — no faster (the line is shared)
// and much faster than their worst cases would allow (what is given back is used again).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/paths.js";
import { freshDatabase, skipPostgres } from "../helpers/postgres.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const tokens = 1000;
const perMs = 2000;
const used = 50;
const held = 400; // at least: maxOutputTokens, before the prompt's estimate
const callsEach = 10;
const msPerToken = perMs / tokens;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function tokenProvider() {
  const seen: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.method === "GET") return void response.end("warm");
      seen.push(performance.timeOrigin + performance.now());
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 30, completion_tokens: used - 30 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

function startProcess(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test", "fixtures", "token-rate-process.ts"), ...args], {
    cwd: repoRoot,
  });
  let out = "";
  let err = "";
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith("ready\n")) onReady();
  });
  const done = new Promise<void>((resolve, reject) =>
    child.on("close", (code) => (code === 0 && out.includes("done\n") ? resolve() : reject(new Error(`exited ${code}: ${err}`)))),
  );
  return { ready, done };
}

const backends = [
  ["a SQLite file", false, async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-tokens-")), "limits.sqlite")}`],
  ["PostgreSQL", skipPostgres, freshDatabase],
  ["Redis", skipRedis, async () => `redis:${redisUrl!}`],
] as const;

describe.each(backends)("a token rate shared by two processes on %s", (backend, skip, flagOf) => {
  it.skipIf(skip)(
    "two processes' calls go at the rate of the tokens they used, within the rate in every window",
    async () => {
      const provider = await tokenProvider();
      const flag = await flagOf();
      const go = join(mkdtempSync(join(tmpdir(), "planloop-tokens-go-")), "go");
      const name = `provider-${randomUUID().slice(0, 8)}`;
      const processes = [1, 2].map(() =>
        startProcess([flag, provider.baseURL, name, String(tokens), String(perMs), String(callsEach), go]),
      );
      await Promise.race([Promise.all(processes.map((each) => each.ready)), Promise.all(processes.map((each) => each.done))]);
      writeFileSync(go, "");
      await Promise.all(processes.map((each) => each.done));

      const times = provider.seen.sort((a, b) => a - b);
      expect(times).toHaveLength(2 * callsEach);
      // Shared: every call after the first waited for the tokens used before it, whichever
      // process made them (one process alone would need half this time).
      const tookMs = times.at(-1)! - times[0]!;
      console.log(`${backend}: ${times.length} calls in ${tookMs} ms (${(times.length - 1) * used * msPerToken} ms of tokens used)`);
      expect(tookMs).toBeGreaterThanOrEqual((times.length - 1) * used * msPerToken - 5);
      // No window of perMs saw more than the rate, give or take the one call that opens it.
      for (const end of times) {
        const inWindow = times.filter((at) => at > end - perMs && at <= end).length;
        expect(inWindow * used).toBeLessThanOrEqual(tokens + held);
      }
      // Given back: holding 400 a call and never giving it back would take 20 × 400 tokens' time (16 s).
      expect(tookMs).toBeLessThan((times.length * held * msPerToken) / 2);
    },
    60_000,
  );
});
