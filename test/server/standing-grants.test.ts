// Standing grants on the run server: approving a tool's later calls within one run, with who gave
// it kept; a grant for run A never approves anything in run B; a grant's arguments narrow it,
// compared as JSON on their own keys; a schedule's grant holds for the runs its origin names,
// and a client that may only start runs cannot make one of them.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, scheduledRunId, type CheckpointStore } from "planloop";
import { planloopClient, type PlanloopApiError } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { addToken } from "../../src/server/api-tokens.js";
import { addGrant } from "../../src/runs/standing-grants.js";

const done: string[] = [];
const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  input: z.object({ order: z.string(), amount: z.number() }),
  needsApproval: true,
  execute: ({ order }) => (done.push(order), `refunded ${order}`),
});
/** Three refunds one after another: each asks for approval when its turn comes. */
const chain = (prefix: string, amounts = [10, 10, 10]) => ({
  steps: amounts.map((amount, index) => ({
    id: index + 1,
    task: `refund ${index}`,
    tool: "refund",
    args: { order: `${prefix}${index}`, amount },
    depends_on: index === 0 ? [] : [index],
  })),
});

let store: CheckpointStore;
let server: RunServer;
afterEach(async () => {
  await server.close({ abortRuns: true });
  await store.close();
  done.length = 0;
});

async function setUp() {
  store = memoryStore();
  server = await startRunServer({ store, tools: [refund], pollMs: 20 });
  return planloopClient({ url: server.url, token: server.sessionToken! });
}

async function untilWaiting(client: ReturnType<typeof planloopClient>, runId: string) {
  for await (const event of client.stream(runId)) if (event.type === "run-paused") return;
}

describe("standing grants", () => {
  it("approves the tool's later calls in that run without asking, and nothing in another run", async () => {
    const client = await setUp();
    await client.start({ plan: chain("A"), runId: "a" });
    await client.start({ plan: chain("B"), runId: "b" });
    await untilWaiting(client, "a");
    await untilWaiting(client, "b");
    const granted = await client.grant("a", { tool: "refund", scope: "run", expiresInMs: 3_600_000 });
    expect(granted.grant).toMatchObject({ by: "session", within: "a" });
    expect(granted.decided).toEqual(["step:1"]);
    const events = [];
    for await (const event of client.stream("a")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    expect(done).toEqual(["A0", "A1", "A2"]);
    const a = await client.get("a");
    expect(a.decisions.map((decision) => [decision.id, decision.by])).toEqual([
      ["step:1", "standing grant of session"],
      ["step:2", "standing grant of session"],
      ["step:3", "standing grant of session"],
    ]);
    // Run b still waits for its first refund: a's grant never reaches it.
    const b = await client.get("b");
    expect(b.status).toBe("waiting");
    expect(b.pending.map((item) => item.id)).toEqual(["step:1"]);
  });

  it("a grant's arguments narrow it: a call with other arguments still asks", async () => {
    const client = await setUp();
    await client.start({ plan: chain("C", [10, 10, 999]), runId: "c" });
    await untilWaiting(client, "c");
    await client.grant("c", { tool: "refund", args: { amount: 10 }, scope: "run", expiresInMs: 60_000 });
    // The 999 refund is not covered: the run waits for it.
    for await (const event of client.stream("c"))
      if (event.type === "run-paused" && (event.pending as Array<{ id: string }>)[0]?.id === "step:3") break;
    expect(done).toEqual(["C0", "C1"]);
    expect((await client.get("c")).pending.map((item) => item.id)).toEqual(["step:3"]);
    const refused = await client.grant("c", { tool: "refund", scope: "schedule", expiresInMs: 60_000 }).catch((error: unknown) => error);
    expect((refused as PlanloopApiError).status).toBe(400);
  });

  it("keeps a pattern exactly as sent: a `__proto__` key is an argument like any other, never an empty pattern", async () => {
    const client = await setUp();
    await client.start({ plan: chain("P", [10, 9_000]), runId: "p" });
    await untilWaiting(client, "p");
    // Sent as JSON text: an object literal would make "__proto__" a prototype, not a key.
    const response = await fetch(`${server.url}/api/runs/p/decisions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.sessionToken!}`, "content-type": "application/json" },
      body: '{"grant":{"tool":"refund","args":{"__proto__":{"order":"P0"}},"scope":"run","expiresInMs":60000}}',
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { grant: { args: unknown }; decided: string[] };
    expect(JSON.stringify(answer.grant.args)).toBe('{"__proto__":{"order":"P0"}}');
    // No call has an argument named __proto__: nothing is approved, the run still waits for its first refund.
    expect(answer.decided).toEqual([]);
    expect((await client.get("p")).pending.map((item) => item.id)).toEqual(["step:1"]);
    expect(done).toEqual([]);
  });

  it("refuses (400) a grant whose arguments name a secret key, which the store keeps masked and no call could match", async () => {
    const client = await setUp();
    await client.start({ plan: chain("S", [10]), runId: "s" });
    await untilWaiting(client, "s");
    for (const args of [{ apiKey: "k-1" }, { order: "S0", auth: { token: "t" } }]) {
      const refused = await client
        .grant("s", { tool: "refund", args, scope: "run", expiresInMs: 60_000 })
        .then(() => undefined)
        .catch((error: unknown) => error as PlanloopApiError);
      expect(refused?.status).toBe(400);
      expect(refused?.message).toMatch(/is a secret key, whose value the store never keeps readable/);
    }
    expect((await client.get("s")).pending.map((item) => item.id)).toEqual(["step:1"]);
  });

  it('compares a pattern\'s values as JSON of the same type: "10" is not 10, an object is not an array', async () => {
    const client = await setUp();
    await client.start({ plan: chain("T", [10]), runId: "t" });
    await untilWaiting(client, "t");
    for (const args of [{ amount: "10" }, { amount: [10] }, { amount: { 0: 10 } }, { order: ["T0"] }]) {
      const granted = await client.grant("t", { tool: "refund", args, scope: "run", expiresInMs: 60_000 });
      expect(granted.decided).toEqual([]);
    }
    expect(done).toEqual([]);
    expect((await client.grant("t", { tool: "refund", args: { amount: 10.0 }, scope: "run", expiresInMs: 60_000 })).decided).toEqual([
      "step:1",
    ]);
  });

  it("a client that may only start runs cannot start or fork one as a schedule's: its grant never approves that client's payment", async () => {
    store = memoryStore();
    const runner = (await addToken(store, { name: "runner", scopes: ["run"] })).token;
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    // The weekly schedule's run, started as a schedule's launch starts it, and a grant for its refunds.
    const fireAt = Date.parse("2026-12-07T08:00:00.000Z");
    const weekly = scheduledRunId("weekly", fireAt);
    const origin = { schedule: { name: "weekly", fireAt } };
    expect(await executePlan({ plan: chain("W", [10]), tools: [refund], store, runId: weekly, origin })).toMatchObject({
      status: "waiting",
    });
    await addGrant(store, weekly, { tool: "refund", scope: "schedule", expiresInMs: 3_600_000, by: "alice", at: Date.now() });

    const client = planloopClient({ url: server.url, token: runner });
    const asSchedule = { plan: chain("X", [1_000_000]), runId: scheduledRunId("weekly", fireAt + 7 * 86_400_000) };
    const started = await client.start(asSchedule).catch((error: unknown) => error as PlanloopApiError);
    expect(started).toMatchObject({ status: 400, body: { field: "body.runId" } });
    await client.start({ plan: chain("M", [1_000_000]), runId: "mine" });
    await untilWaiting(client, "mine");
    const forked = await client.fork("mine", { step: 1, runId: `${weekly}-copy` }).catch((error: unknown) => error as PlanloopApiError);
    expect(forked).toMatchObject({ status: 400 });
    // Its own run is its own, not the schedule's: the grant does not reach it.
    expect((await store.getRun("mine"))?.origin).toEqual({ client: "runner" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await client.get("mine")).pending.map((item) => item.id)).toEqual(["step:1"]);
    expect(done).toEqual([]);
    expect((await store.listRuns()).map((row) => row.runId).sort()).toEqual(["mine", weekly].sort());
  });

  it("keeps a schedule's grant made over HTTP on a run of the command line when a service applies grants to every run; refuses it (409) when none does", async () => {
    store = memoryStore();
    const fireAt = Date.parse("2026-12-07T08:00:00.000Z");
    const weekly = scheduledRunId("weekly", fireAt);
    const origin = { schedule: { name: "weekly", fireAt } };
    expect(await executePlan({ plan: chain("W", [10]), tools: [refund], store, runId: weekly, origin })).toMatchObject({
      status: "waiting",
    });
    const grant = { tool: "refund", scope: "schedule" as const, expiresInMs: 3_600_000 };
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const alone = planloopClient({ url: server.url, token: server.sessionToken! });
    expect(await alone.grant(weekly, grant).catch((error: unknown) => (error as PlanloopApiError).status)).toBe(409);
    await server.close();
    server = await startRunServer({ store, tools: [refund], pollMs: 20, servesAllRuns: true });
    const served = planloopClient({ url: server.url, token: server.sessionToken! });
    // Kept, and left to the service's next pass: nothing is approved here.
    expect(await served.grant(weekly, grant)).toMatchObject({ grant: { scope: "schedule", within: "weekly", by: "session" }, decided: [] });
    expect(done).toEqual([]);
  });
});
