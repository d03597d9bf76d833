// The run ids the HTTP API takes, by the library's one rule (src/runs/run-id.ts), and whose run
// each caller may change: no new run named like an inner run, a schedule's, nothing or too much;
// no route acting on an inner run (`x/plan:1`, sent as `x%2Fplan:1`); a client that may only
// start runs cancels and forks its own runs alone. Each refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore } from "planloop";
import { planloopClient } from "planloop/client";
import { refundTool } from "../helpers/refund-tool.js";
import { addToken } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

const { refund, refunds } = refundTool();
const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A7" } }] };

let store: CheckpointStore;
let server: RunServer;
const tokens: Record<"runner" | "other" | "admin", string> = { runner: "", other: "", admin: "" };

beforeAll(async () => {
  store = memoryStore();
  tokens.runner = (await addToken(store, { name: "runner", scopes: ["run"] })).token;
  tokens.other = (await addToken(store, { name: "other", scopes: ["run"] })).token;
  tokens.admin = (await addToken(store, { name: "boss", scopes: ["admin"] })).token;
  server = await startRunServer({ store, tools: [refund], pollMs: 20 });
  const client = planloopClient({ url: server.url, token: tokens.runner });
  await client.start({ plan, runId: "mine" });
  for await (const event of client.stream("mine")) if (event.type === "run-paused") break;
  // A run kept inside "mine", as a strategy's plan run is.
  await store.createRun({ runId: "mine/plan:1", entry: "executePlan", at: Date.now() });
});
afterAll(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

async function post(path: string, token: string, body: unknown): Promise<{ status: number; body: { error?: string; field?: string } }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: string; field?: string } };
}

async function runIds(): Promise<string[]> {
  return (await store.listRuns()).map((row) => row.runId).sort();
}

describe("run ids through the HTTP API", () => {
  it.each(["victim/plan:9", "mine/step", "", "x".repeat(201), "weekly@2026-12-07T08:00:00.000Z", "a b"])(
    "POST /api/runs with runId %j: 400 naming body.runId, nothing started",
    async (runId) => {
      const answer = await post("/api/runs", tokens.runner, { plan, runId });
      expect(answer).toMatchObject({ status: 400, body: { field: "body.runId" } });
      expect(await runIds()).toEqual(["mine", "mine/plan:1"]);
    },
  );

  it("a route never acts on an inner run: reading, cancelling, forking or sending an event to mine/plan:1 is a 400", async () => {
    const inner = encodeURIComponent("mine/plan:1");
    const read = await fetch(`${server.url}/api/runs/${inner}`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(read.status).toBe(400);
    expect(await post(`/api/runs/${inner}/cancel`, tokens.admin, {})).toMatchObject({ status: 400, body: { field: "id" } });
    expect(await post(`/api/runs/${inner}/fork`, tokens.admin, { step: 1 })).toMatchObject({ status: 400 });
    expect(await post("/api/events/go", tokens.admin, { runId: "mine/plan:1" })).toMatchObject({
      status: 400,
      body: { field: "event.runId" },
    });
    expect((await store.getRun("mine/plan:1"))?.status).toBe("running");
    expect(await store.events!.lastSeq()).toBe(0);
  });

  it("a client that may only start runs cancels and forks its own: another's is a 403; one that may decide too may", async () => {
    expect(await post("/api/runs/mine/cancel", tokens.other, {})).toMatchObject({ status: 403 });
    expect(await post("/api/runs/mine/fork", tokens.other, { step: 1, runId: "theirs" })).toMatchObject({ status: 403 });
    expect(await runIds()).toEqual(["mine", "mine/plan:1"]);
    const forked = await post("/api/runs/mine/fork", tokens.runner, { step: 1, runId: "mine-again" });
    expect(forked.status).toBe(201);
    expect((await store.getRun("mine-again"))?.origin).toEqual({ forkedFrom: { runId: "mine", step: "1" }, client: "runner" });
    // The API shows it as kept: where the run came from, never read from its id.
    const view = await fetch(`${server.url}/api/runs/mine-again`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(((await view.json()) as { origin?: unknown }).origin).toEqual({ forkedFrom: { runId: "mine", step: "1" }, client: "runner" });
    expect(await post("/api/runs/mine-again/cancel", tokens.admin, {})).toMatchObject({ status: 200 });
    expect(await post("/api/runs/mine/cancel", tokens.runner, {})).toMatchObject({ status: 200 });
    expect(refunds).toEqual([]);
  });
});
