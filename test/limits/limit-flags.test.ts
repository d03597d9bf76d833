// A provider's limit declared on the command line (issue 58): --requests-per-minute and
// --concurrent-requests make the model's limit, --limits-shared keeps it in a SQLite file (or
// Postgres, or Redis) every process given the same shares. Flags that cannot be a limit are refused.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelAdapter } from "planloop";
import { limitFromFlags } from "../../src/cli/limit-option.js";
import { modelFromFlags } from "../../src/cli/model-option.js";
import { completion, startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { redisUrl, skipRedis } from "../helpers/redis.js";

const servers: ChatServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const request = () => ({
  messages: [{ role: "user" as const, content: "hi" }],
  tools: [],
  step: 0,
  signal: new AbortController().signal,
  purpose: "act" as const,
});

describe("a provider's limit from the command line", () => {
  it("--requests-per-minute 60: turns a second apart, across two models sharing one file", async () => {
    const server = await startChatServer(Array.from({ length: 4 }, () => completion({ content: "ok" })));
    servers.push(server);
    const shared = `sqlite:${join(mkdtempSync(join(tmpdir(), "planloop-limit-flags-")), "limits.sqlite")}`;
    // Two models made from the same flags: as two processes would, they meet in the file.
    const flags = { baseUrl: server.baseURL, model: "m", requestsPerMinute: "60", limitsShared: shared };
    const models = [(await modelFromFlags(flags, {})) as ModelAdapter, (await modelFromFlags(flags, {})) as ModelAdapter];
    await Promise.all([...models, ...models].map((model) => model.generate(request())));
    const at = server.requests.map((each) => each.at).sort((a, b) => a - b);
    expect(at).toHaveLength(4);
    // Turns 1 s apart: the fourth request goes 3 s after the first turn. A margin of a second for
    // a busy machine (the first request may reach the server late: 100 ms turns failed under load);
    // without the limit, the four arrive within a few ms.
    expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(2_000);
  });

  it.skipIf(skipRedis)("--limits-shared redis://…: two models made from the flags share the turns in Redis", async () => {
    const server = await startChatServer(Array.from({ length: 4 }, () => completion({ content: "ok" })));
    servers.push(server);
    const flags = { baseUrl: server.baseURL, model: "m", requestsPerMinute: "60", limitsShared: redisUrl! };
    const models = [(await modelFromFlags(flags, {})) as ModelAdapter, (await modelFromFlags(flags, {})) as ModelAdapter];
    await Promise.all([...models, ...models].map((model) => model.generate(request())));
    const at = server.requests.map((each) => each.at).sort((a, b) => a - b);
    expect(at).toHaveLength(4);
    // As the SQLite file's: turns a second apart, a second's margin.
    expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(2_000);
  });

  it("--tokens-per-minute 3000: a call waits for the tokens the one before it used", async () => {
    const server = await startChatServer(Array.from({ length: 2 }, () => completion({ content: "ok" })));
    servers.push(server);
    const model = (await modelFromFlags({ baseUrl: server.baseURL, model: "m", tokensPerMinute: "3000" }, {})) as ModelAdapter;
    await model.generate(request());
    await model.generate(request());
    const at = server.requests.map((each) => each.at).sort((a, b) => a - b);
    // A token is 20 ms of the line. The first call held its prompt's estimate (8 tokens: 160 ms)
    // and then said it used 60 (the server's usage): the second goes 1.2 s after the first's
    // turn (a margin for a first request that reached the server late); without, a few ms apart.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(700);
  });

  it("--tenant-weight heavy=2 (planloop serve's): the heavy tenant gets two turns for the other's one", async () => {
    // Turns 100 ms apart (600 a minute). A served tenant's claim holds until the next turn, so its
    // next call, asking a moment after its turn came, keeps its place. Before that, a late timer on a
    // busy machine let a turn go to the other tenant (6 of the first 12, in CI on Node 24; here
    // 2 of 6 runs at 10 ms turns under three CPU burners, 0 of 6 with the claim held).
    const limit = limitFromFlags({ requestsPerMinute: "600", tenantWeight: ["heavy=2", "a=b=1"] }, `weights-${Date.now()}`)!;
    const order: string[] = [];
    await Promise.all(
      ["heavy", "plain"].flatMap((tenant) =>
        Array.from({ length: 12 }, async () => {
          (await limit.turn(undefined, undefined, { tenant }))();
          order.push(tenant);
        }),
      ),
    );
    const heavy = order.slice(0, 12).filter((tenant) => tenant === "heavy").length;
    expect(heavy).toBeGreaterThanOrEqual(7);
    expect(heavy).toBeLessThanOrEqual(9);
  });

  it("refuses flags that cannot be a limit, and a limit for a model module (it declares its own)", async () => {
    const base = { baseUrl: "http://127.0.0.1:9/v1", model: "m" };
    await expect(modelFromFlags({ ...base, requestsPerMinute: "0" }, {})).rejects.toThrow(
      '--requests-per-minute must be a whole number >= 1, not "0"',
    );
    await expect(modelFromFlags({ ...base, tokensPerMinute: "-5" }, {})).rejects.toThrow("--tokens-per-minute must be a whole number");
    await expect(modelFromFlags({ ...base, concurrentRequests: "2.5" }, {})).rejects.toThrow(
      "--concurrent-requests must be a whole number",
    );
    await expect(modelFromFlags({ ...base, limitsShared: "mysql://x" }, {})).rejects.toThrow(
      /--limits-shared: write sqlite:<path>, postgres:\/\/… or redis:\/\/…/,
    );
    for (const pair of ["heavy", "=2", "heavy=0", "heavy=-1", "heavy=2x"])
      await expect(modelFromFlags({ ...base, tenantWeight: [pair] }, {})).rejects.toThrow(
        `--tenant-weight takes <tenant>=<weight> (a number > 0), not ${JSON.stringify(pair)}`,
      );
    await expect(modelFromFlags({ model: "./model.mjs", requestsPerMinute: "60" }, {})).rejects.toThrow(
      /is a module: declare its limit there/,
    );
  });
});
