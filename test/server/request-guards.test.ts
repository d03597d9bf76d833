// The run server as other people's clients and suites read it (issue 56): a browser page of
// another origin cannot call the API or /mcp (MCP's transport makes the check a MUST); a method
// a path does not take is a 405 naming the ones it does; a retried fork is answered as a
// retried start is, not with a 400.
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore } from "planloop";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundTool } from "../helpers/refund-tool.js";

let server: RunServer | undefined;
let store: CheckpointStore | undefined;
afterEach(async () => {
  await server?.close({ abortRuns: true });
  await store?.close();
  server = store = undefined;
});

async function started(options: { allowedOrigins?: string[] } = {}) {
  store = memoryStore();
  const { refund } = refundTool();
  server = await startRunServer({ store, tools: [refund], pollMs: 20, ...options });
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server!.sessionToken!}`, "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call };
}

const plan = { steps: [{ id: 1, task: "refund A1", tool: "refund", args: { order: "A1" } }] };

describe("the run server's request guards", () => {
  it("refuses a page of another origin (403) on the API and /mcp; its own origin, listed ones and programs pass", async () => {
    const { call } = await started({ allowedOrigins: ["https://app.example.com"] });
    const evil = { origin: "https://evil.example" };
    const refused = await call("POST", "/api/runs", evil, { plan, runId: "from-evil" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain("https://evil.example may not call this server");
    expect((await call("GET", "/api/runs", { origin: "null" })).status).toBe(403);
    const mcp = await call(
      "POST",
      "/mcp",
      { ...evil, accept: "application/json, text/event-stream" },
      { jsonrpc: "2.0", id: 1, method: "ping" },
    );
    expect(mcp.status).toBe(403);
    expect(await store!.getRun("from-evil")).toBeUndefined();
    expect((await call("POST", "/api/runs", { origin: server!.url }, { plan, runId: "own" })).status).toBe(201);
    expect((await call("POST", "/api/runs", { origin: "https://app.example.com" }, { plan, runId: "listed" })).status).toBe(201);
    expect((await call("POST", "/api/runs", {}, { plan, runId: "program" })).status).toBe(201);
  });

  it("refuses an allow-list entry that is not an origin", async () => {
    await expect(started({ allowedOrigins: ["https://app.example.com/path"] })).rejects.toThrow(/scheme:\/\/host\[:port\]/);
  });

  it("answers a method a path does not take with 405 and Allow; a path that is not the API's stays 404", async () => {
    const { call } = await started();
    const runs = await call("DELETE", "/api/runs");
    expect(runs.status).toBe(405);
    expect(runs.headers.get("allow")).toBe("GET, HEAD, POST");
    const decisions = await call("PUT", "/api/runs/some-run/decisions");
    expect([decisions.status, decisions.headers.get("allow")]).toEqual([405, "POST"]);
    expect((await call("GET", "/api/nothing-here")).status).toBe(404);
  });

  it("answers a retried fork 200 created: false and starts nothing more; the id taken by another fork is a 409", async () => {
    const { call } = await started();
    await call("POST", "/api/runs", {}, { plan, runId: "source" });
    const fork = { step: 1, runId: "again" };
    const first = await call("POST", "/api/runs/source/fork", {}, fork);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ runId: "again", created: true });
    const retried = await call("POST", "/api/runs/source/fork", {}, fork);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ runId: "again", created: false });
    expect((await store!.listRuns({ topLevel: true })).map((row) => row.runId).sort()).toEqual(["again", "source"]);
    const other = await call("POST", "/api/runs/source/fork", {}, { step: 1, runId: "source" });
    expect(other.status).toBe(409);
  });
});
