// A stream over a long run draws at each wake only what was appended (issue 54's SSE target):
// every journal entry the server reads is watched, and the entries there before the stream's
// first look are not looked at again however often the run changes.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckpointStore, JournalEntry, StoredRun } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { planloopClient } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { z } from "zod";
import { defineTool } from "planloop";

const servers: RunServer[] = [];
const stores: CheckpointStore[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close({ abortRuns: true })));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const stepStart = (index: number): JournalEntry => ({
  kind: "step-start",
  stepKey: String(index),
  attempt: 1,
  idempotencyKey: `k${index}`,
  at: 1_000 + index,
});

/** The store as the server sees it, each journal entry it hands out counting the looks at it, by its position. */
function watched(store: CheckpointStore) {
  const looks = new Map<number, number>();
  const handOut = (run: StoredRun | undefined, from: number): StoredRun | undefined => {
    if (run === undefined) return run;
    const journal = run.journal.map(
      (entry, index) =>
        new Proxy(entry, {
          get: (target, key, receiver) => {
            looks.set(from + index, (looks.get(from + index) ?? 0) + 1);
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
    );
    return { ...run, journal };
  };
  const wrapped: CheckpointStore = {
    ...store,
    getRun: async (runId) => handOut(await store.getRun(runId), 0),
    getRunFrom: async (runId, from) => handOut(await store.getRunFrom!(runId, from), from),
    close: () => {},
  };
  const looksBelow = (position: number) => [...looks].reduce((sum, [at, count]) => sum + (at < position ? count : 0), 0);
  return { store: wrapped, looksBelow };
}

describe("a stream over a run of many entries", () => {
  it("looks at each wake only at the entries appended since (800 entries, 10 changes)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-incremental-")), "runs.sqlite");
    const other = sqliteStore({ path, feedMs: 20 });
    const inner = sqliteStore({ path, feedMs: 20 });
    const served = watched(inner);
    stores.push(other, inner);
    const server = await startRunServer({ store: served.store, tools: [] });
    servers.push(server);
    const plan: JournalEntry = { kind: "plan", version: 1, plan: { steps: [{ id: 1, task: "many", depends_on: [] }] } };
    await other.createRun({ runId: "long", entry: "executePlan", at: 1 });
    await other.append("long", [plan, ...Array.from({ length: 800 }, (_, index) => stepStart(index))], 2);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const abort = new AbortController();
    let heard = 0;
    let woke = () => {};
    const following = (async () => {
      for await (const event of client.stream("long", { signal: abort.signal })) {
        if (event.type === "step-start" || event.type === "plan-created") heard += 1;
        woke();
      }
    })().catch(() => {});
    const until = (count: number) =>
      new Promise<void>((resolve) => {
        woke = () => heard >= count && resolve();
        woke();
      });
    await until(801);
    const before = served.looksBelow(801);
    for (let change = 0; change < 10; change += 1) {
      await other.append("long", [stepStart(800 + change)], 3 + change);
      await until(802 + change);
    }
    // The old entries were drawn once; a redraw at each wake would look at all 801 again.
    expect(served.looksBelow(801)).toBe(before);
    expect(served.looksBelow(811)).toBeGreaterThan(before);
    abort.abort();
    await following;
  });

  it("lists the runs kept inside only when one may have changed, not at each of the run's own writes (30 steps)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "planloop-incremental-")), "runs.sqlite");
    // The feed looks once a minute: within the test only the server's own writes wake the stream.
    const inner = sqliteStore({ path, feedMs: 60_000 });
    stores.push(inner);
    let listings = 0;
    const store: CheckpointStore = {
      ...inner,
      listRuns: (filters) => {
        if (filters?.within !== undefined) listings += 1;
        return inner.listRuns(filters);
      },
      close: () => {},
    };
    // Each step's tool returns once the stream has given its start: the run writes while the stream follows it.
    const waiting: Array<() => void> = [];
    let allowed = 0;
    const go = () => (waiting.length > 0 ? waiting.shift()!() : (allowed += 1));
    const echo = defineTool({
      name: "echo",
      description: "echo",
      input: z.object({ n: z.number() }),
      execute: ({ n }) => (allowed > 0 ? ((allowed -= 1), n) : new Promise<number>((resolve) => waiting.push(() => resolve(n)))),
    });
    const server = await startRunServer({ store, tools: [echo] });
    servers.push(server);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const steps = Array.from({ length: 30 }, (_, index) => ({
      id: index + 1,
      task: "echo",
      tool: "echo",
      args: { n: index },
      depends_on: index === 0 ? [] : [index],
    }));
    await client.start({ plan: { steps }, runId: "chain" });
    let ends = 0;
    for await (const event of client.stream("chain")) {
      if (event.type === "step-start") go();
      if (event.type === "step-end") ends += 1;
    }
    expect(ends).toBe(30);
    // The first look lists them; a listing at every wake would be one for each of the run's commits.
    expect(listings).toBe(1);
  });
});
