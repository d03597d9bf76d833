// The run server through real HTTP on 127.0.0.1: runs started by the API, a stream cut mid-run and
// resumed with Last-Event-ID, a wave of 20 approvals in one request, a restart of the server
// while a run waits, cancel, and bodies the server refuses with the field named.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type CheckpointStore } from "planloop";
import { sqliteStore } from "planloop/sqlite";
import { planloopClient, PlanloopApiError, type StreamEvent } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";

/** A tool whose calls wait until the test opens their gate, each call by its `n`. */
function gatedTool() {
  const gates = new Map<number, () => void>();
  const opened = new Set<number>();
  const aborted: number[] = [];
  const calls: number[] = [];
  const gate = defineTool({
    name: "gate",
    description: "waits for its gate",
    input: z.object({ n: z.number() }),
    execute: ({ n }, { signal }) =>
      new Promise((resolve, reject) => {
        calls.push(n);
        if (opened.has(n)) return resolve({ n, done: true });
        gates.set(n, () => resolve({ n, done: true }));
        signal?.addEventListener("abort", () => (aborted.push(n), reject(new Error("aborted"))));
      }),
  });
  const open = (n: number) => {
    opened.add(n);
    gates.get(n)?.();
  };
  return { gate, open, aborted, calls };
}

const servers: RunServer[] = [];
const stores: CheckpointStore[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close({ abortRuns: true })));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function serverOn(file: string, tools: Parameters<typeof startRunServer>[0]["tools"]) {
  const store = sqliteStore({ path: file });
  stores.push(store);
  const server = await startRunServer({ store, tools, pollMs: 50, maxBodyBytes: 64_000 });
  servers.push(server);
  return { store, server, client: planloopClient({ url: server.url, token: server.sessionToken! }) };
}

const chain = {
  steps: [
    { id: 1, task: "first", tool: "gate", args: { n: 1 }, depends_on: [] },
    { id: 2, task: "second", tool: "gate", args: { n: 2 }, depends_on: [1] },
    { id: 3, task: "third", tool: "gate", args: { n: 3 }, depends_on: [2] },
  ],
};

async function collect(stream: AsyncGenerator<StreamEvent, unknown>, until?: (event: StreamEvent) => boolean): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (until?.(event)) break;
  }
  return events;
}

describe("the run server over HTTP", () => {
  it("a stream cut mid-run and resumed with Last-Event-ID: the same events, in order, none twice", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { gate, open } = gatedTool();
    const { client } = await serverOn(file, [gate]);
    const started = await client.start({ plan: chain, runId: "cut" });
    expect(started).toEqual({ runId: "cut", created: true });
    expect(await client.start({ plan: chain, runId: "cut" })).toEqual({ runId: "cut", created: false });
    open(1);
    // Read until step 1 has ended, then drop the connection while step 2 waits at its gate.
    const before = await collect(client.stream("cut"), (event) => event.type === "step-end" && event.stepId === 1);
    expect(before.map((event) => event.type)).toEqual(["plan-created", "step-start", "step-end"]);
    open(2);
    open(3);
    const after = await collect(client.stream("cut", { lastEventId: before.at(-1)!.id }));
    expect((await client.get("cut")).status).toBe("completed");
    const whole = await collect(client.stream("cut"));
    expect([...before, ...after].map(({ id, type, stepId }) => ({ id, type, stepId }))).toEqual(
      whole.map(({ id, type, stepId }) => ({ id, type, stepId })),
    );
    expect(whole.filter((event) => event.type === "step-end").map((event) => event.stepId)).toEqual([1, 2, 3]);
    expect(whole.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
  });

  it("a Last-Event-ID from another run's stream, or past the end, is a 400 naming it, not an empty stream (issue 54)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { gate, open } = gatedTool();
    const { client, server } = await serverOn(file, [gate]);
    for (const n of [1, 2, 3]) open(n);
    await client.start({ plan: chain, runId: "long" });
    await client.start({ plan: { steps: [chain.steps[0]!] }, runId: "short" });
    const long = await collect(client.stream("long"));
    await collect(client.stream("short"));
    const refused = async (runId: string, lastEventId: string) => {
      const response = await fetch(`${server.url}/api/runs/${runId}/stream`, {
        headers: { authorization: `Bearer ${server.sessionToken!}`, "last-event-id": lastEventId },
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    };
    expect(await refused("short", long.at(-1)!.id)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/another run/) } });
    // An id in the form before cursors named their run, past this run's end.
    const pastEnd = Buffer.from(JSON.stringify({ "": 999 })).toString("base64url");
    expect(await refused("short", pastEnd)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/past the end/) } });
    // Its own last id: the stream ends at once with nothing more.
    expect(await collect(client.stream("long", { lastEventId: long.at(-1)!.id }))).toEqual([]);
  });

  it("a wave of 20 approvals in one request; a stale id refuses the whole wave; each refund runs once", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { refund, refunds: done } = refundTool();
    const { client } = await serverOn(file, [refund]);
    const plan = {
      steps: Array.from({ length: 20 }, (_, index) => ({
        id: index + 1,
        task: `refund ${index}`,
        tool: "refund",
        args: { order: `A${index}` },
      })),
    };
    const { runId } = await client.start({ plan });
    await collect(client.stream(runId), (event) => event.type === "run-paused");
    const waiting = await client.get(runId);
    expect(waiting.status).toBe("waiting");
    expect(waiting.pending).toHaveLength(20);
    const wave = waiting.pending.map((item) => ({ pendingId: item.id, action: "approve" as const }));
    const refused = await client
      .decide(runId, [...wave.slice(1), { pendingId: "step:99", action: "approve" }])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanloopApiError);
    expect((refused as PlanloopApiError).status).toBe(409);
    expect((refused as PlanloopApiError).body.ids).toEqual(["step:99"]);
    expect(done).toEqual([]);
    expect((await client.get(runId)).pending).toHaveLength(20);
    expect(await client.decide(runId, wave)).toEqual({ decided: wave.map((decision) => decision.pendingId), continued: true });
    const rest = await collect(client.stream(runId));
    expect(rest.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    expect(done.map((line) => line.split(" ")[0]).sort()).toEqual(plan.steps.map((step) => step.args.order).sort());
    // The same wave again (a retried request) decides nothing and runs nothing.
    const again = await client.decide(runId, wave).catch((error: unknown) => error);
    expect((again as PlanloopApiError).status).toBe(409);
    expect(done).toHaveLength(20);
  });

  it("a run waiting when its server stops is decided on the next server over the same store, its stream going on", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const first = refundTool();
    const one = await serverOn(file, [first.refund]);
    const plan = { steps: [{ id: 1, task: "refund A7", tool: "refund", args: { order: "A7" } }] };
    const { runId } = await one.client.start({ plan, runId: "restart" });
    const seen = await collect(one.client.stream(runId), (event) => event.type === "run-paused");
    await one.server.close({ abortRuns: true });
    const second = refundTool();
    const two = await serverOn(file, [second.refund]);
    const [pending] = (await two.client.get(runId)).pending;
    await two.client.decide(runId, { pendingId: pending!.id, action: "approve" });
    const rest = await collect(two.client.stream(runId, { lastEventId: seen.at(-1)!.id }));
    const whole = await collect(two.client.stream(runId));
    expect([...seen, ...rest].map((event) => event.id)).toEqual(whole.map((event) => event.id));
    expect(rest.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    expect([first.refunds, second.refunds]).toEqual([[], ["A7 restart/1"]]);
  });

  it("cancel aborts a run's running tool and ends it cancelled; a finished run is not cancelled again", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { gate, aborted } = gatedTool();
    const { client } = await serverOn(file, [gate]);
    const { runId } = await client.start({ plan: chain });
    await collect(client.stream(runId), (event) => event.type === "step-start");
    expect(await client.cancel(runId)).toEqual({ runId, status: "cancelled" });
    expect(aborted).toEqual([1]);
    expect((await client.get(runId)).status).toBe("cancelled");
    const again = await client.cancel(runId).catch((error: unknown) => error);
    expect((again as PlanloopApiError).status).toBe(409);
  });

  it("fork reruns a run from a step: the steps before it are reused, the rest run again in a new run", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { gate, open, calls } = gatedTool();
    const { client } = await serverOn(file, [gate]);
    [1, 2, 3, 20].forEach(open);
    await client.start({ plan: chain, runId: "source" });
    for await (const event of client.stream("source")) void event;
    expect(calls).toEqual([1, 2, 3]);
    const forked = await client.fork("source", { step: 2, args: { n: 20 }, runId: "again" });
    expect(forked).toMatchObject({ runId: "again", rerun: ["2", "3"], reused: ["1"] });
    const events = [];
    for await (const event of client.stream("again")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    expect(calls).toEqual([1, 2, 3, 20, 3]);
    const refused = await client.fork("source", { step: 9 }).catch((error: unknown) => error);
    expect((refused as PlanloopApiError).status).toBe(400);
  });

  it("shares step slots fairly between runs: a second run's step starts at the first slot that frees", async () => {
    const { gate, open, calls } = gatedTool();
    const store = sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite") });
    stores.push(store);
    const server = await startRunServer({ store, tools: [gate], pollMs: 50, stepSlots: 2 });
    servers.push(server);
    const client = planloopClient({ url: server.url, token: server.sessionToken! });
    const wide = (from: number, count: number) => ({
      steps: Array.from({ length: count }, (_, index) => ({ id: index + 1, task: "gate", tool: "gate", args: { n: from + index } })),
    });
    await client.start({ plan: wide(1, 4), runId: "many" });
    for await (const event of client.stream("many")) if (event.type === "step-start" && event.stepId === 2) break;
    await client.start({ plan: wide(100, 1), runId: "one" });
    // The run waits for a slot (its plan is written with its first step's start).
    for (let look = 0; look < 1000 && !server.host.slots.waitingRuns().includes("one"); look += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    // Both wait: "many" for a third slot, "one" for its first.
    expect(server.host.slots.waitingRuns()).toEqual(["many", "one"]);
    expect(calls).toEqual([1, 2]);
    open(1);
    for await (const event of client.stream("one")) if (event.type === "step-start") break;
    expect(calls).toEqual([1, 2, 100]);
    [2, 3, 4, 100].forEach(open);
    for (const runId of ["many", "one"]) for await (const event of client.stream(runId)) void event;
    expect((await client.get("many")).status).toBe("completed");
    expect((await client.get("one")).status).toBe("completed");
  });

  it("refuses bad bodies with a 400 naming the field, a body too large with 413, and starts nothing", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "planloop-serve-")), "runs.sqlite");
    const { gate } = gatedTool();
    const { client, server, store } = await serverOn(file, [gate]);
    const post = (path: string, body: string, type = "application/json") =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.sessionToken}`, "content-type": type },
        body,
      });
    const refusal = async (response: Response) => ({ status: response.status, ...((await response.json()) as object) });
    expect(await refusal(await post("/api/runs", JSON.stringify({ task: 5 })))).toMatchObject({ status: 400, field: "body.task" });
    expect(await refusal(await post("/api/runs", JSON.stringify({ task: "report" })))).toMatchObject({ status: 400, field: "task" });
    expect(await refusal(await post("/api/runs", JSON.stringify({ plan: { steps: [{ id: 1, task: "x", tool: "nope" }] } })))).toMatchObject(
      {
        status: 400,
        field: "plan",
      },
    );
    expect(await refusal(await post("/api/runs", "{not json"))).toMatchObject({ status: 400, error: "the body is not JSON" });
    expect(await refusal(await post("/api/runs", "{}", "text/plain"))).toMatchObject({ status: 415 });
    expect(await refusal(await post("/api/runs", JSON.stringify({ plan: "x".repeat(100_000) })))).toMatchObject({ status: 413 });
    const { runId } = await client.start({ plan: chain });
    expect(await refusal(await post(`/api/runs/${runId}/decisions`, JSON.stringify([{ pendingId: "a", action: "nope" }])))).toMatchObject({
      status: 400,
      field: "decisions[0].action",
    });
    expect(await refusal(await post("/api/runs/none/decisions", JSON.stringify({ pendingId: "a", action: "approve" })))).toMatchObject({
      status: 404,
    });
    expect((await store.listRuns()).map((run) => run.runId)).toEqual([runId]);
  });
});
