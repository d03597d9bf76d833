// /mcp on the run server over Streamable HTTP, driven by the MCP SDK's own client: the server's
// tokens apply, a plan runs with progress, and what it waits for is answered through decide.
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { z } from "zod";
import { addToken } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";
import { tryHostileRunIds } from "../helpers/hostile-run-ids.js";

let store: CheckpointStore;
let server: RunServer;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "planloop-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

describe("/mcp on planloop serve", () => {
  it("takes the server's tokens, runs a plan with progress, and a waiting run is decided through decide", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const client = await connect(server.sessionToken!);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("run_plan");
    const plan = { steps: [1, 2].map((id) => ({ id, task: `refund ${id}`, tool: "refund", args: { order: `A${id}` } })) };
    const waiting = await client.callTool({ name: "run_plan", arguments: { plan, runId: "over-http" } });
    expect(waiting.structuredContent).toMatchObject({ status: "waiting", pending: [{ id: "step:1" }, { id: "step:2" }] });
    const progress: number[] = [];
    const done = await client.callTool(
      {
        name: "decide",
        arguments: { runId: "over-http", decisions: ["step:1", "step:2"].map((pendingId) => ({ pendingId, action: "approve" })) },
      },
      undefined,
      { onprogress: (update) => void progress.push(update.progress) },
    );
    expect(done.structuredContent).toMatchObject({ status: "completed" });
    expect(refunds.map((line) => line.split(" ")[0]).sort()).toEqual(["A1", "A2"]);
    expect(progress.length).toBeGreaterThan(0);
  });

  it("keeps a task in the store: each request reads it, a decision continues it, its result is fetched", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const client = await connect(server.sessionToken!);
    const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "B1" } }] };
    const created = await client.request(
      { method: "tools/call", params: { name: "run_plan", arguments: { plan, runId: "task-over-http" }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task).toMatchObject({ taskId: "task-over-http", status: "working", ttl: 60_000 });
    let task = await client.experimental.tasks.getTask("task-over-http");
    for (let tries = 0; task.status !== "input_required" && tries < 200; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      task = await client.experimental.tasks.getTask("task-over-http");
    }
    expect(task).toMatchObject({ status: "input_required", _meta: { "planloop/pending": [{ id: "step:1", kind: "approval" }] } });
    await client.callTool({
      name: "decide",
      arguments: { runId: "task-over-http", decisions: [{ pendingId: "step:1", action: "approve" }] },
    });
    expect((await client.experimental.tasks.getTask("task-over-http")).status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult("task-over-http", CallToolResultSchema);
    expect(result).toMatchObject({ structuredContent: { runId: "task-over-http", status: "completed" } });
    expect(refunds.map((line) => line.split(" ")[0])).toEqual(["B1"]);
    // A task that could not start begins working (the spec's rule) and fails at once, saying why.
    const refused = await client.request(
      {
        method: "tools/call",
        params: { name: "run_plan", arguments: { plan: { steps: [{ id: 1, task: "x", tool: "nope", args: {} }] } }, task: {} },
      },
      CreateTaskResultSchema,
    );
    expect(refused.task.status).toBe("working");
    const failed = await client.experimental.tasks.getTask(refused.task.taskId);
    expect(failed.status).toBe("failed");
    expect(failed.statusMessage).toContain("nope");
    await expect(client.experimental.tasks.getTask("no-such-task")).rejects.toThrow(/not found/i);
  });

  it("cancels a task over HTTP (its tool aborted), and reads a waiting task after the server restarted", async () => {
    store = memoryStore();
    let aborted = 0;
    let started = 0;
    const hold = defineTool({
      name: "hold",
      description: "Runs until aborted",
      input: z.object({}),
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          started = Date.now();
          signal.addEventListener("abort", () => ((aborted = Date.now()), reject(signal.reason)));
        }),
    });
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [hold, refund], pollMs: 20 });
    let client = await connect(server.sessionToken!);
    const asked = (name: string, runId: string, plan: unknown) =>
      client.request({ method: "tools/call", params: { name, arguments: { plan, runId }, task: {} } }, CreateTaskResultSchema);
    await asked("run_plan", "held-http", { steps: [{ id: 1, task: "hold", tool: "hold", args: {} }] });
    for (let tries = 0; started === 0 && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const cancelledAt = Date.now();
    expect((await client.experimental.tasks.cancelTask("held-http")).status).toBe("cancelled");
    // Aborted (a tool never aborted leaves it 0), and within a second.
    expect(aborted).toBeGreaterThanOrEqual(cancelledAt);
    expect(aborted - cancelledAt).toBeLessThan(1_000);
    expect((await client.experimental.tasks.getTask("held-http")).status).toBe("cancelled");

    await asked("run_plan", "waits-http", { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "C3" } }] });
    for (let tries = 0; (await client.experimental.tasks.getTask("waits-http")).status !== "input_required" && tries < 200; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // The server goes away and another starts over the same store.
    await client.close();
    clients.length = 0;
    await server.close();
    server = await startRunServer({ store, tools: [hold, refund], pollMs: 20 });
    client = await connect(server.sessionToken!);
    expect((await client.experimental.tasks.getTask("waits-http")).status).toBe("input_required");
    await client.callTool({ name: "decide", arguments: { runId: "waits-http", decisions: [{ pendingId: "step:1", action: "approve" }] } });
    const result = await client.experimental.tasks.getTaskResult("waits-http", CallToolResultSchema);
    expect(result).toMatchObject({ structuredContent: { status: "completed", output: "refunded C3" } });
    expect(refunds).toEqual(["C3 waits-http/1"]);
  });

  it("refuses a request without a token, and a token that may not both run and decide", async () => {
    store = memoryStore();
    const reader = (await addToken(store, { name: "reader", scopes: ["read"] })).token;
    const runner = (await addToken(store, { name: "runner", scopes: ["run"] })).token;
    server = await startRunServer({ store, tools: [refundTool().refund], pollMs: 20 });
    const ping = (token?: string) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
    expect((await ping()).status).toBe(401);
    expect((await ping(reader)).status).toBe(403);
    expect((await ping(runner)).status).toBe(403);
    await expect(connect(reader)).rejects.toThrow();
  });

  it("takes run ids by the library's one rule: no inner run of another's, no schedule's, nothing empty or huge; plants nothing", async () => {
    store = memoryStore();
    const paid: number[] = [];
    const pay = defineTool({
      name: "pay",
      description: "Pay an amount",
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => (paid.push(amount), `paid ${amount}`),
    });
    const token = (await addToken(store, { name: "agent", scopes: ["run", "decide"] })).token;
    server = await startRunServer({ store, tools: [pay], pollMs: 20 });
    await tryHostileRunIds(await connect(token));
    // The only run is the victim's, its origin the token that started it; nothing was paid.
    expect((await store.listRuns()).map((row) => [row.runId, row.origin])).toEqual([["victim", { client: "agent" }]]);
    expect(paid).toEqual([]);
  });
});
