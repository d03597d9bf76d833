// DNS rebinding against a server on the loopback (issue 56; the MCP conformance suite's
// dns-rebinding-protection): a page at evil.example whose name resolved to 127.0.0.1 sends
// Host and Origin both evil.example. "Same origin" by Host alone let it through; it is a 403
// on /mcp and the API, even with a token, while the server's own loopback names still pass.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore } from "planloop";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

let server: RunServer;
let store: CheckpointStore;
afterEach(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

/** A POST with the Host and Origin a browser would send (fetch may not set Host). */
function post(path: string, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: "POST",
        headers: {
          authorization: `Bearer ${server.sessionToken}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (answer) => {
        answer.resume();
        answer.on("end", () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end(JSON.stringify(body));
  });
}

const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
const plan = { steps: [{ id: 1, task: "nothing", tool: "nothing", args: {} }] };

describe("a loopback server and DNS rebinding", () => {
  it("refuses a page whose own name is the Host; takes its loopback names and a program without Origin", async () => {
    store = memoryStore();
    server = await startRunServer({ store, tools: [], pollMs: 20, allowedOrigins: ["http://dashboard.example:8080"] });
    const port = server.port;
    for (const name of [
      "evil.example",
      "evil.example:80",
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
    ])
      expect(await post("/mcp", { host: name, origin: `http://${name}` }, ping)).toBe(403);
    expect(await post("/api/runs", { host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, { plan, runId: "evil" })).toBe(
      403,
    );
    expect(await store.getRun("evil")).toBeUndefined();
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`])
      expect(await post("/mcp", { host: name, origin: `http://${name}` }, ping)).toBe(200);
    // Listed by the operator, and a program that sends no Origin at all.
    expect(await post("/mcp", { host: "dashboard.example:8080", origin: "http://dashboard.example:8080" }, ping)).toBe(200);
    expect(await post("/mcp", { host: `evil.example:${port}` }, ping)).toBe(200);
  });
});
