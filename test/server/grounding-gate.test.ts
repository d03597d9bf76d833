// The run server as a pipeline's gate (issue 55): `grounding` in POST /api/runs, and a run
// that completes with a figure its steps do not support says so in its webhook and the runs list.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { planloopClient, PlanloopApiError } from "planloop/client";
import { ScriptedModel } from "planloop/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startRunServer } from "../../src/server/start-server.js";
import { until } from "../helpers/call-log.js";

const secret = "a-webhook-secret-of-some-length";
const sql = defineTool({
  name: "sql",
  description: "Run a query",
  input: z.object({ query: z.string() }),
  execute: () => ({ refunds_cny: 7100 }),
});
const plan = JSON.stringify({ steps: [{ id: 1, task: "the week's refunds", tool: "sql", args: { query: "select refunds" } }] });
const answer = (text: string) => [
  { type: "final" as const, content: plan },
  { type: "final" as const, content: text },
];

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function receiver() {
  const received: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push(JSON.parse(body));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function serverWith(model: ScriptedModel, url: string) {
  const store: CheckpointStore = memoryStore();
  const server = await startRunServer({ store, tools: [sql], model, pollMs: 20, webhooks: { url, secret, backoffMs: 5 } });
  closing.push(
    () => store.close(),
    () => server.close({ abortRuns: true }),
  );
  return Object.assign(planloopClient({ url: server.url, token: server.sessionToken! }), { server });
}

async function ended(client: ReturnType<typeof planloopClient>, runId: string) {
  for await (const event of client.stream(runId)) if (event.type === "run-end") return;
}

describe("grounding in the run server", () => {
  it("marks a completed run with an unsupported figure in its webhook and the runs list; a supported one stays plain", async () => {
    const hook = await receiver();
    const model = new ScriptedModel([...answer("Refunds came to ¥71,000.00 [s1]."), ...answer("Refunds came to ¥7,100.00 [s1].")]);
    const client = await serverWith(model, hook.url);
    const wrong = await client.start({ task: "How much was refunded?", runId: "wrong", grounding: "flag" });
    await ended(client, wrong.runId);
    const right = await client.start({ task: "How much was refunded?", runId: "right" });
    await ended(client, right.runId);
    await until(() => hook.received.length === 2);
    expect(hook.received).toEqual([
      expect.objectContaining({ type: "run.completed", runId: "wrong", grounding: { policy: "flag", claims: 1, unsupported: 1 } }),
      expect.not.objectContaining({ grounding: expect.anything() }),
    ]);
    const { runs } = await client.list();
    expect(runs.find((run) => run.runId === "wrong")).toMatchObject({ status: "completed", unsupportedClaims: 1 });
    expect(runs.find((run) => run.runId === "right")).not.toHaveProperty("unsupportedClaims");
  });

  it("runs strict when asked: the unsupported sentence is cut and the run ends incomplete; refuses a policy it does not know", async () => {
    const hook = await receiver();
    const model = new ScriptedModel([
      ...answer("Refunds came to ¥71,000.00 [s1]."),
      { type: "final", content: "Refunds came to ¥72,000.00 [s1]." },
    ]);
    const client = await serverWith(model, hook.url);
    const { runId } = await client.start({ task: "How much was refunded?", runId: "strict", grounding: "strict" });
    await ended(client, runId);
    await until(() => hook.received.length === 1);
    expect(hook.received[0]).toMatchObject({ type: "run.failed", status: "incomplete" });
    const refused = await client.start({ task: "t", grounding: "sometimes" as "flag" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanloopApiError);
    expect((refused as PlanloopApiError).message).toContain("grounding");
  });

  it("takes grounding in MCP's ask: strict cuts the unsupported sentence, and the run ends incomplete", async () => {
    const hook = await receiver();
    const model = new ScriptedModel([
      ...answer("Refunds came to ¥71,000.00 [s1]."),
      { type: "final", content: "Refunds came to ¥72,000.00 [s1]." },
    ]);
    const { server } = await serverWith(model, hook.url);
    const mcp = new Client({ name: "planloop-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${server.sessionToken!}` } },
      }),
    );
    closing.push(() => mcp.close());
    const asked = await mcp.callTool({
      name: "ask",
      arguments: { task: "How much was refunded?", runId: "mcp-strict", grounding: "strict" },
    });
    expect(asked.structuredContent).toMatchObject({ runId: "mcp-strict", status: "incomplete" });
    const refused = await mcp.callTool({ name: "ask", arguments: { task: "t", grounding: "sometimes" } });
    expect(refused.isError).toBe(true);
  });
});
