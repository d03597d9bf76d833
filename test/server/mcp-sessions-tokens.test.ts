// `planloop serve --mcp-sessions`: a session is its token's (docs/mcp.md), attacked by another
// token — one that names the session, one that ends it, one given the removed token's name.
import { afterEach, describe, expect, it } from "vitest";
import { memoryStore, type CheckpointStore } from "planloop";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { addToken, removeToken } from "../../src/server/api-tokens.js";

let store: CheckpointStore;
let server: RunServer;
afterEach(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

const send = (token: string, session: string | undefined, body?: unknown) =>
  fetch(`${server.url}/mcp`, {
    method: body === undefined ? "DELETE" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(session === undefined ? {} : { "mcp-session-id": session }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "forms", version: "1.0.0" } },
};
const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const scopes = ["run", "decide"];

describe("an --mcp-sessions session and other tokens", () => {
  it("is refused to another token, to its DELETE, and to a new token given the removed owner's name", async () => {
    store = memoryStore();
    const alice = (await addToken(store, { name: "alice", scopes })).token;
    const bob = (await addToken(store, { name: "bob", scopes })).token;
    server = await startRunServer({ store, tools: [], mcpSessions: true });
    const opened = await send(alice, undefined, initialize);
    const session = opened.headers.get("mcp-session-id");
    await opened.text();
    expect(session).toEqual(expect.any(String));
    await (await send(alice, session!, { jsonrpc: "2.0", method: "notifications/initialized" })).text();

    expect((await send(bob, session!, toolsList)).status).toBe(404);
    expect((await send(bob, session!)).status).toBe(404);
    const owner = await send(alice, session!, toolsList);
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain("run_plan");

    // The token is removed, and a new one (someone else's, perhaps) is given its name: before, it
    // took over the live session (its tasks, its forms), as the session was bound to the name.
    await removeToken(store, "alice");
    expect((await send(alice, session!, toolsList)).status).toBe(401);
    const newAlice = (await addToken(store, { name: "alice", scopes })).token;
    const taken = await send(newAlice, session!, toolsList);
    await taken.text();
    expect(taken.status).toBe(404);
  });
});
