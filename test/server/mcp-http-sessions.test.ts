// Elicitation over HTTP for 2025-11-25 clients (planloop serve --mcp-sessions): the MCP SDK's
// 1.x client declares form elicitation, gets a session of its own, calls a run tool as a task,
// and is asked through a form on its tasks/result, as over stdio; its answer reaches the server
// that asked. A client without forms stays stateless; another token cannot use the session.
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { memoryStore, type CheckpointStore } from "planloop";
import { addToken } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";

let store: CheckpointStore;
let server: RunServer;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

async function connect(options: { forms: boolean; token?: string }) {
  const client = new Client(
    { name: "sessions-test", version: "1.0.0" },
    { capabilities: options.forms ? { elicitation: { form: {} } } : {} },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? server.sessionToken!}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function runAsTask(client: Client, runId: string) {
  let result: unknown;
  for await (const message of client.experimental.tasks.callToolStream(
    { name: "run_plan", arguments: { plan: refundPlan, runId } },
    CallToolResultSchema,
    { task: {} },
  )) {
    if (message.type === "result") result = message.result;
    if (message.type === "error") throw message.error;
  }
  return result;
}

describe("/mcp sessions for 2025-11-25 clients that take forms", () => {
  it("asks the person through a form on tasks/result over HTTP, and the run goes on with the answer", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20, mcpSessions: true });
    const { client, transport } = await connect({ forms: true });
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const asked: Array<ElicitRequest["params"]> = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { "step:1": true } };
    });
    const result = await runAsTask(client, "asked-over-http");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: "form",
      requestedSchema: { properties: { "step:1": { type: "boolean" } }, required: ["step:1"] },
      _meta: { "planloop/pending": [{ id: "step:1", kind: "approval", name: "refund" }] },
    });
    expect(result).toMatchObject({ structuredContent: { runId: "asked-over-http", status: "completed" } });
    expect(refunds).toHaveLength(1);
    // Kept as given by the token's name through the form (the session token's name is "session").
    const kept = (await store.getRun("asked-over-http"))!.journal.flatMap((entry) =>
      entry.kind === "human-decision" ? [[entry.id, entry.by]] : [],
    );
    expect(kept).toEqual([["step:1", "session (elicitation)"]]);

    // The session is the token's: another token naming it is told it does not exist; a DELETE ends it.
    const other = (await addToken(store, { name: "other", scopes: ["run", "decide"] })).token;
    const stolen = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${other}`,
        "mcp-session-id": transport.sessionId!,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }),
    });
    expect(stolen.status).toBe(404);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const ended = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.sessionToken!}`,
        "mcp-session-id": sessionId,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/list", params: {} }),
    });
    expect(ended.status).toBe(404);
  });

  it("keeps a client that takes no forms stateless, and one beyond the most sessions kept: no session, the task waits for decide", async () => {
    store = memoryStore();
    const { refund } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20, mcpSessions: { maxSessions: 1 } });
    expect((await connect({ forms: true })).transport.sessionId).toBeDefined();
    expect((await connect({ forms: true })).transport.sessionId).toBeUndefined();
    const { client, transport } = await connect({ forms: false });
    expect(transport.sessionId).toBeUndefined();
    const created = await client.experimental.tasks.callToolStream(
      { name: "run_plan", arguments: { plan: refundPlan, runId: "no-forms" } },
      CallToolResultSchema,
      { task: {} },
    );
    const first = await created.next();
    expect(first.value).toMatchObject({ type: "taskCreated" });
    expect((await client.callTool({ name: "get_run", arguments: { runId: "no-forms" } })).structuredContent).toMatchObject({
      status: expect.stringMatching(/running|waiting/),
    });
  });

  it("keeps one token to its share of sessions, so it cannot take every slot from another token", async () => {
    store = memoryStore();
    const { refund } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20, mcpSessions: { maxSessions: 4, maxSessionsPerToken: 2 } });
    const mine = await Promise.all([1, 2, 3].map(() => connect({ forms: true })));
    expect(mine.filter(({ transport }) => transport.sessionId !== undefined)).toHaveLength(2);
    const other = (await addToken(store, { name: "other", scopes: ["run", "decide"] })).token;
    expect((await connect({ forms: true, token: other })).transport.sessionId).toBeDefined();
  });
});
