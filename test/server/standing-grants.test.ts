// Standing grants on the run server: approving a tool's later calls within one run, with who gave
// it kept; a grant for run A never approves anything in run B; a grant's arguments narrow it.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient, type PlanloopApiError } from "planloop/client";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

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
});
