// Streams fed by the store's one change feed, hostile cursors, and a reader that stops reading
// (issue 54). Real HTTP on 127.0.0.1; "another process" is a second store object on the same file.
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckpointStore, JournalEntry } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { planloopClient, type StreamEvent } from "planloop/client";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { serverApp } from "../../src/server/server-app.js";
import { RunChanges } from "../../src/server/run-changes.js";
import { RunHost } from "../../src/runs/run-host.js";
import { seededRandom } from "../../src/core/seeded-random.js";

const servers: RunServer[] = [];
const stores: CheckpointStore[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close({ abortRuns: true })));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const file = () => join(mkdtempSync(join(tmpdir(), "planloop-feed-")), "runs.sqlite");

function opened(path: string, feedMs = 20): CheckpointStore {
  const store = sqliteStore({ path, feedMs });
  stores.push(store);
  return store;
}

/** The store as the server sees it, counting its reads of each run (whole, or what was appended since) and the feeds it opens. */
function counted(store: CheckpointStore) {
  const reads = new Map<string, number>();
  const read = (runId: string) => reads.set(runId, (reads.get(runId) ?? 0) + 1);
  let watches = 0;
  const wrapped: CheckpointStore = {
    ...store,
    getRun: (runId) => (read(runId), store.getRun(runId)),
    getRunFrom: (runId, from) => (read(runId), store.getRunFrom!(runId, from)),
    watchRuns: (listener) => (watches++, store.watchRuns!(listener)),
    close: () => {},
  };
  return { store: wrapped, reads: (runId: string) => reads.get(runId) ?? 0, watches: () => watches };
}

const planEntry = (version: number, task: string): JournalEntry => ({
  kind: "plan",
  version,
  plan: { steps: [{ id: 1, task, depends_on: [] }] },
});

/** Reads a stream, handing each event to `seen`, until it ends or `stop` says so. */
async function follow(stream: AsyncGenerator<StreamEvent, unknown>, seen: (event: StreamEvent) => boolean | void): Promise<void> {
  for await (const event of stream) if (seen(event) === true) return;
}

describe("open streams share the store's one change feed", () => {
  it("40 streams of a run: one feed; a write by another process wakes each once; writes to other runs read it not at all", async () => {
    const path = file();
    const other = opened(path);
    const served = counted(opened(path));
    // pollMs 10: a stream that still polled would read its run many times while the test waits.
    const server = await startRunServer({ store: served.store, tools: [], pollMs: 10 });
    servers.push(server);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    for (const runId of ["watched", "elsewhere"]) {
      other.createRun({ runId, entry: "executePlan", at: 1 });
      other.append(runId, [planEntry(1, "first")], 1);
    }
    const abort = new AbortController();
    const versions: number[][] = Array.from({ length: 40 }, () => []);
    const heard = (count: number) => versions.every((seen) => seen.length >= count);
    let woke: () => void = () => {};
    const streams = versions.map((seen) =>
      follow(client.stream("watched", { signal: abort.signal }), (event) => {
        seen.push(event.version as number);
        woke();
      }).catch(() => {}),
    );
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        woke = () => done() && resolve();
        woke();
      });
    await until(() => heard(1));
    const elsewhere: number[] = [];
    const side = follow(client.stream("elsewhere", { signal: abort.signal }), (event) => {
      elsewhere.push(event.version as number);
      woke();
    }).catch(() => {});
    await until(() => elsewhere.length === 1);
    const before = served.reads("watched");

    other.append("watched", [planEntry(2, "second")], 2);
    await until(() => heard(2));
    const woken = served.reads("watched") - before;
    // Each stream looks once for the change (a look may be due to the feed's first note too).
    expect(woken).toBeGreaterThanOrEqual(40);
    expect(woken).toBeLessThanOrEqual(80);

    const settled = served.reads("watched");
    for (let version = 2; version <= 6; version += 1) {
      other.append("elsewhere", [planEntry(version, `elsewhere ${version}`)], version);
      await until(() => elsewhere.length === version);
    }
    expect(served.reads("watched")).toBe(settled);
    expect(versions.every((seen) => seen.join() === "1,2")).toBe(true);
    expect(served.watches()).toBe(1);
    abort.abort();
    await Promise.all([...streams, side]);
  });

  it("a stream whose reader went away stops waiting for its run's next change", async () => {
    const store = opened(file());
    store.createRun({ runId: "idle", entry: "executePlan", at: 1 });
    store.append("idle", [planEntry(1, "first")], 1);
    const changes = new RunChanges(store);
    const host = new RunHost({ store, tools: [] });
    const app = serverApp({ store, host, changes, sessionToken: "pls_test-session-token" });
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = planloopClient({ url, token: "pls_test-session-token" });
    const abort = new AbortController();
    let heard = 0;
    const streams = Array.from({ length: 10 }, () =>
      follow(client.stream("idle", { signal: abort.signal, reconnects: 0 }), () => void (heard += 1)).catch(() => {}),
    );
    while (heard < 10 || changes.waiters < 10) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    await Promise.all(streams);
    // Nothing more is written to the run: only the readers' going away ends the waits.
    while (changes.waiters > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes.waiters).toBe(0);
    changes.close();
    await host.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("hostile cursors are refused with a 400 naming the Last-Event-ID (60 seeded forgeries)", async () => {
    const path = file();
    const store = opened(path);
    const server = await startRunServer({ store, tools: [] });
    servers.push(server);
    for (const [runId, size] of [
      ["mine", 3],
      ["theirs", 6],
    ] as const) {
      store.createRun({ runId, entry: "executePlan", at: 1 });
      store.append(runId, [planEntry(1, "a")], 1);
      store.createRun({ runId: `${runId}/inner`, entry: "runAgent", at: 1 });
      store.append(
        `${runId}/inner`,
        Array.from({ length: size }, (_, index) => planEntry(index + 1, "b")),
        1,
      );
      store.finishRun(`${runId}/inner`, { status: "completed" }, 2);
    }
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const random = seededRandom(54);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const forgeries: Array<() => string> = [
      () => encode({ run: "theirs", sent: { "": 1 } }),
      () => encode({ run: pick(["mine/inner", "MINE", "mine ", "", "../mine"]), sent: { "": 1 } }),
      () => encode({ run: "mine", sent: { "": 1, inner: 7 + Math.floor(random() * 1000) } }),
      () => encode({ run: "mine", sent: { [pick(["other", "inner/x", "/inner", "__proto__"])]: 1 } }),
      () => encode({ run: "mine", sent: { "": pick([-1, 1.5, "1", null, 2 ** 60]) } }),
      () => encode({ run: "mine", sent: pick([[], "x", 3, null]) }),
      () => encode(pick([[], "x", 3, null, true])),
      () => encode({ "": 2 + Math.floor(random() * 50) }),
      () => pick(["%%%", "not-base64!", Buffer.from("{").toString("base64url"), "A".repeat(5000)]),
    ];
    for (let round = 0; round < 60; round += 1) {
      const id = pick(forgeries)();
      const abort = new AbortController();
      const response = await fetch(`${server.url}/api/runs/mine/stream`, {
        headers: { authorization: `Bearer ${server.sessionToken!}`, "last-event-id": id },
        signal: abort.signal,
      });
      // A cursor taken would open the (endless) stream: stop it and fail on its status.
      if (response.status !== 400) abort.abort();
      const body = response.status === 400 ? ((await response.json()) as { error: string; field?: string }) : { error: "" };
      expect({ id, status: response.status, field: body.field }).toEqual({ id, status: 400, field: "Last-Event-ID" });
      expect(body.error).toContain(JSON.stringify(id.slice(0, 80)));
    }
  });
});

/** A GET whose body the test does not read until it says so: a reader that stopped reading. */
function stalledGet(url: string, headers: Record<string, string>) {
  let body = "";
  const ended = new Promise<string>((resolve, reject) => {
    const sent = request(url, { headers }, (response) => {
      response.pause();
      resumed.then(() => {
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve(body));
        response.on("aborted", () => resolve(body));
        response.on("error", () => resolve(body));
        response.resume();
      }, reject);
    });
    sent.on("error", reject);
    sent.end();
  });
  let resume: () => void = () => {};
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  return { resume, ended };
}

/** The whole events of an SSE body (a partial last one is left out, as a reader drops it), with their data and id. */
function wholeEvents(body: string): Array<{ event?: string; id?: string; data: string }> {
  const blocks = body.split("\n\n");
  blocks.pop();
  return blocks.map((block) => {
    const fields: { event?: string; id?: string; data: string } = { data: "" };
    for (const line of block.split("\n")) {
      const [name, ...rest] = line.split(": ");
      const value = rest.join(": ");
      if (name === "data") fields.data += value;
      else if (name === "event" || name === "id") fields[name] = value;
    }
    return fields;
  });
}

describe("a reader that stops reading", () => {
  it("is cut off at the buffer cap; a reconnect from its last Last-Event-ID gets exactly the rest", async () => {
    const path = file();
    const store = opened(path);
    // About 10 MB of events: more than the cap and the sockets' buffers together.
    store.createRun({ runId: "big", entry: "executePlan", at: 1 });
    const task = "x".repeat(12_000);
    for (let version = 1; version <= 800; version += 1) store.append("big", [planEntry(version, `${version} ${task}`)], version);
    store.finishRun("big", { status: "completed" }, 900);
    let cut: (value: { runId: string; capBytes: number }) => void = () => {};
    const wasCut = new Promise<{ runId: string; capBytes: number }>((resolve) => (cut = resolve));
    const server = await startRunServer({ store, tools: [], streamBufferBytes: 64_000, onStreamCut: (info) => cut(info) });
    servers.push(server);
    const headers = { authorization: `Bearer ${server.sessionToken!}` };
    const stalled = stalledGet(`${server.url}/api/runs/big/stream`, headers);
    expect(await wasCut).toEqual({ runId: "big", capBytes: 64_000 });
    stalled.resume();
    const got = wholeEvents(await stalled.ended);
    expect(got.some((event) => event.event === "end")).toBe(false);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(800);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const rest: StreamEvent[] = [];
    await follow(client.stream("big", { lastEventId: got.at(-1)!.id, reconnects: 0 }), (event) => void rest.push(event));
    const whole: StreamEvent[] = [];
    await follow(client.stream("big", { reconnects: 0 }), (event) => void whole.push(event));
    // 800 plans and the run's end.
    expect(whole).toHaveLength(801);
    const first = got.map((event) => JSON.parse(event.data) as StreamEvent);
    expect([...first, ...rest].map(({ id, type, version }) => ({ id, type, version }))).toEqual(
      whole.map(({ id, type, version }) => ({ id, type, version })),
    );
  });
});
