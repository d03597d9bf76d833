// Who may do what on the run server: every route refuses a request without a token or with an
// unknown one (401) and a token without the route's scope (403), and such a request changes
// nothing: no run started, decided or cancelled, no event kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore } from "planloop";
import { refundTool } from "../helpers/refund-tool.js";
import { planloopClient } from "planloop/client";
import { addToken, listTokens, removeToken, type ApiScope } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

const { refund } = refundTool();

let store: CheckpointStore;
let server: RunServer;
const tokens: Partial<Record<ApiScope, string>> = {};
let pendingId: string;

beforeAll(async () => {
  store = memoryStore();
  for (const scope of ["read", "decide", "run", "admin"] as const)
    tokens[scope] = (await addToken(store, { name: `${scope}-token`, scopes: [scope] })).token;
  server = await startRunServer({ store, tools: [refund], pollMs: 20 });
  const client = planloopClient({ url: server.url, token: tokens.run! });
  await client.start({ plan: { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A7" } }] }, runId: "waits" });
  for await (const event of client.stream("waits")) if (event.type === "run-paused") break;
  pendingId = (await client.get("waits")).pending[0]!.id;
});
afterAll(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

const routes: Array<{ method: string; path: string; scope: ApiScope; body?: () => unknown }> = [
  { method: "GET", path: "/api/runs", scope: "read" },
  { method: "GET", path: "/api/runs/waits", scope: "read" },
  { method: "GET", path: "/api/runs/waits/stream", scope: "read" },
  {
    method: "POST",
    path: "/api/runs",
    scope: "run",
    body: () => ({ plan: { steps: [{ id: 1, task: "x", tool: "refund", args: { order: "B1" } }] }, runId: "new" }),
  },
  { method: "POST", path: "/api/runs/waits/cancel", scope: "run", body: () => ({}) },
  { method: "POST", path: "/api/runs/waits/fork", scope: "run", body: () => ({ step: 1, runId: "forked" }) },
  { method: "POST", path: "/api/events/export-ready", scope: "run", body: () => ({ id: "e1", data: { rows: 3 } }) },
  { method: "POST", path: "/api/runs/waits/decisions", scope: "decide", body: () => ({ pendingId, action: "approve" }) },
];

/** Who each scope's token is refused by: the scopes that do not include the route's. */
const refusedFor: Record<ApiScope, ApiScope[]> = { read: [], decide: ["read"], run: ["read", "decide"], admin: [] };

async function request(route: (typeof routes)[number], token: string | undefined): Promise<number> {
  const response = await fetch(`${server.url}${route.path}`, {
    method: route.method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(route.body ? { "content-type": "application/json" } : {}),
    },
    ...(route.body ? { body: JSON.stringify(route.body()) } : {}),
  });
  await response.body?.cancel();
  return response.status;
}

async function unchanged(): Promise<void> {
  expect((await store.listRuns()).map((run) => run.runId)).toEqual(["waits"]);
  const run = await store.getRun("waits");
  expect(run?.status).toBe("running");
  expect(run?.journal.some((entry) => entry.kind === "human-decision")).toBe(false);
  expect(await store.events!.lastSeq()).toBe(0);
}

describe("the run server's tokens and scopes", () => {
  it.each(routes)("$method $path: 401 without a token or with an unknown one, 403 without the $scope scope", async (route) => {
    expect(await request(route, undefined)).toBe(401);
    expect(await request(route, "plt_not-a-token")).toBe(401);
    expect(await request(route, `${tokens.admin!}x`)).toBe(401);
    for (const scope of refusedFor[route.scope]) expect(await request(route, tokens[scope])).toBe(403);
    await unchanged();
  });

  it("a token with the scope gets through (decide: the decider's token approves; the wait is over)", async () => {
    const client = planloopClient({ url: server.url, token: tokens.decide! });
    await client.decide("waits", { pendingId, action: "approve" });
    const events = [];
    for await (const event of client.stream("waits")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "completed" });
    // Who decided, and when, is kept with the decision.
    const { decisions } = await client.get("waits");
    expect(decisions).toEqual([{ run: "waits", id: pendingId, decision: { approved: true }, at: expect.any(Number), by: "decide-token" }]);
  });

  it("GET /api/openapi.json describes every route with its scope, its bodies from the schemas the server checks with", async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { schemas: Record<string, { anyOf?: unknown[] }> };
    };
    expect(document.openapi).toBe("3.1.0");
    for (const route of routes) {
      const path = route.path.replace("/waits", "/{id}").replace("/export-ready", "/{name}");
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation!.security).toEqual([{ bearer: [route.scope] }]);
    }
    const start = document.paths["/api/runs"]!.post as unknown as {
      requestBody: { content: { "application/json": { schema: { $ref: string } } } };
    };
    expect(start.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/StartRun" });
    expect(document.components.schemas.StartRun!.anyOf).toHaveLength(2);
  });

  it("beyond 127.0.0.1 the server refuses to start without a token of its own", async () => {
    await expect(startRunServer({ store: memoryStore(), tools: [refund], host: "0.0.0.0" })).rejects.toThrow(
      /only with a token of its own: add one with planloop serve tokens add/,
    );
  });

  it("tokens are kept hashed: the store holds no token; a removed token is refused at once", async () => {
    const kept = JSON.stringify(await listTokens(store));
    for (const token of Object.values(tokens)) expect(kept).not.toContain(token);
    const route = routes[0]!;
    expect(await request(route, tokens.read)).toBe(200);
    expect(await removeToken(store, "read-token")).toBe(true);
    expect(await request(route, tokens.read)).toBe(401);
    await expect(addToken(store, { name: "x", scopes: ["write"] })).rejects.toThrow(/one or more of read, decide, run, admin; not write/);
    await expect(addToken(store, { name: "decide-token", scopes: ["read"] })).rejects.toThrow(
      /there is a token named "decide-token" already/,
    );
    // The names a run's origin and decisions give the session token and MCP over stdio are not a token's to take.
    for (const name of ["session", "MCP"])
      await expect(addToken(store, { name, scopes: ["run"] })).rejects.toThrow(/names the server's own callers/);
  });
});
