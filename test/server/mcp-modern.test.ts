// /mcp on planloop serve answers each client in the protocol version it speaks: the SDK's 2.x
// client negotiating 2026-07-28, and the 1.x client (2025-11-25), against one server.
import { afterEach, describe, expect, it } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { defineTool, definePipeline, memoryStore, type CheckpointStore } from "planloop";
import { z } from "zod";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

let store: CheckpointStore;
let server: RunServer;
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

const headers = () => ({ authorization: `Bearer ${server.sessionToken!}` });

async function modernClient(): Promise<ModernClient> {
  const client = new ModernClient({ name: "modern-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: headers() } }));
  closing.push(client);
  return client;
}

async function legacyClient(): Promise<Client> {
  const client = new Client({ name: "legacy-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: headers() } }));
  closing.push(client);
  return client;
}

function startServer() {
  const lookups: string[] = [];
  const lookup = defineTool({
    name: "lookup",
    description: "Looks an order up",
    input: z.object({ order: z.string() }),
    execute: ({ order }) => (lookups.push(order), `order ${order}: shipped`),
  });
  const status = definePipeline({
    name: "order_status",
    description: "An order's status",
    input: z.object({ order: z.string() }),
    plan: ({ order }) => ({ steps: [{ id: "look", task: "look it up", tool: "lookup", args: { order } }] }),
  });
  return { lookups, start: async () => (server = await startRunServer({ store, tools: [lookup], pipelines: [status], pollMs: 20 })) };
}

const lookupPlan = (order: string) => ({ steps: [{ id: 1, task: "look it up", tool: "lookup", args: { order } }] });

describe("/mcp speaks 2026-07-28 and 2025-11-25 side by side", () => {
  it("negotiates 2026-07-28 with the 2.x client and 2025-11-25 with the 1.x client, listing the same tools to both", async () => {
    store = memoryStore();
    await startServer().start();
    const modern = await modernClient();
    const legacy = await legacyClient();
    expect(modern.getProtocolEra()).toBe("modern");
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(legacy.getServerVersion()?.name).toBe("planloop");
    const modernTools = (await modern.listTools()).tools;
    const legacyTools = (await legacy.listTools()).tools;
    expect(modernTools.map((tool) => tool.name).sort()).toEqual(legacyTools.map((tool) => tool.name).sort());
    expect(modernTools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["run_plan", "ask", "decide", "get_run", "order_status"]));
    // One definition: each tool's input schema is the same JSON Schema on both lines.
    for (const tool of modernTools) {
      const twin = legacyTools.find((other) => other.name === tool.name)!;
      expect(tool.inputSchema.properties, tool.name).toEqual(twin.inputSchema.properties);
      expect(tool.description).toBe(twin.description);
    }
  });

  it("runs a plan for the 2.x client that the 1.x client then reads, and refuses the 2.x client a taken run id", async () => {
    store = memoryStore();
    const { lookups, start } = startServer();
    await start();
    const modern = await modernClient();
    const progress: string[] = [];
    const twoSteps = {
      steps: ["A9", "A10"].map((order, index) => ({ id: index + 1, task: "look it up", tool: "lookup", args: { order } })),
    };
    const done = await modern.callTool(
      { name: "run_plan", arguments: { plan: twoSteps, runId: "modern-run" } },
      {
        onprogress: (update) => void progress.push(`${update.progress}/${update.total}`),
      },
    );
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ runId: "modern-run", status: "completed" });
    expect(lookups.sort()).toEqual(["A10", "A9"]);
    // A progress notification per step, on the 2026-07-28 line too.
    expect(progress).toEqual(["1/2", "2/2"]);
    const legacy = await legacyClient();
    const read = await legacy.callTool({ name: "get_run", arguments: { runId: "modern-run" } });
    expect(read.structuredContent).toMatchObject({ runId: "modern-run", status: "completed" });
    const again = await modern.callTool({ name: "run_plan", arguments: { plan: lookupPlan("B1"), runId: "modern-run" } });
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain("exists already");
    expect(lookups).toEqual(["A10", "A9"]);
  });

  it("checks a 2.x client's arguments and ids by the same rules: a hostile run id is a tool error and runs nothing", async () => {
    store = memoryStore();
    const { lookups, start } = startServer();
    await start();
    const modern = await modernClient();
    for (const runId of ["", "x/plan:2", "nightly@2026", "__proto__/step", "a".repeat(201)]) {
      const refused = await modern.callTool({ name: "run_plan", arguments: { plan: lookupPlan("C1"), runId } });
      expect(refused.isError, runId).toBe(true);
    }
    expect(lookups).toEqual([]);
    expect(await store.listRuns({ topLevel: false, limit: 10 })).toEqual([]);
    // A pipeline runs for the 2.x client too, from the same definition.
    const piped = await modern.callTool({ name: "order_status", arguments: { order: "D4" } });
    expect(piped.structuredContent).toMatchObject({ status: "completed" });
    expect(lookups).toEqual(["D4"]);
  });

  it("answers a request naming a revision it does not speak, or a half envelope, with the SDK's refusal, and runs nothing", async () => {
    store = memoryStore();
    const { lookups, start } = startServer();
    await start();
    const post = async (meta: Record<string, unknown> | undefined, version: string | undefined) => {
      const response = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          ...headers(),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-method": "tools/call",
          "mcp-name": "run_plan",
          ...(version === undefined ? {} : { "mcp-protocol-version": version }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "run_plan", arguments: { plan: lookupPlan("H1") }, ...(meta === undefined ? {} : { _meta: meta }) },
        }),
      });
      const text = await response.text();
      return JSON.parse(
        text.startsWith("{")
          ? text
          : text
              .split("\n")
              .find((line) => line.startsWith("data: "))!
              .slice(6),
      ) as {
        error?: { code: number };
      };
    };
    const envelope = (version: string) => ({
      "io.modelcontextprotocol/protocolVersion": version,
      "io.modelcontextprotocol/clientInfo": { name: "hostile", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    // A revision nobody speaks: the 2.x line refuses it (the 1.x line never sees it).
    expect((await post(envelope("2099-01-01"), "2099-01-01")).error?.code).toBe(-32022);
    // The 2026-07-28 header without the envelope: invalid params, not a 2025 call.
    expect((await post(undefined, "2026-07-28")).error?.code).toBe(-32602);
    expect(lookups).toEqual([]);
    expect(await store.listRuns({ topLevel: false, limit: 10 })).toEqual([]);
  });
});
