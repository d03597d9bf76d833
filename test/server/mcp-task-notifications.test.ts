// The Tasks extension's status notifications on /mcp (2026-07-28): the SDK's own 2.x client
// listens for a task's ids (`subscriptions/listen` with `notifications.taskIds`) and hears
// `notifications/tasks` as the task's status changes, each checked against the extension's own
// generated schema (@modelcontextprotocol/ext-tasks/core/v2).
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { TaskStatusNotificationParamsV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { memoryStore, type CheckpointStore } from "planloop";
import { z } from "zod";
import { addToken } from "../../src/server/api-tokens.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";

let store: CheckpointStore;
let server: RunServer;
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

const tasksExtension = "io.modelcontextprotocol/tasks";

async function client(options: { tasks: boolean }): Promise<Client> {
  const capabilities = options.tasks ? { extensions: { [tasksExtension]: {} } } : {};
  const connected = new Client(
    { name: "notifications-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: capabilities as never },
  );
  await connected.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${server.sessionToken!}` } },
    }),
  );
  closing.push(connected);
  return connected;
}

/**
 * Starts a run tool as a task. Over the wire: the 2.x client refuses a `resultType: "task"` answer
 * to its own tools/call (the extension's client, `@modelcontextprotocol/ext-tasks`, needs a raw dispatcher).
 */
async function createTask(name: string, args: Record<string, unknown>) {
  const response = await post("tools/call", { name, arguments: args }, { headers: { "mcp-name": name } });
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

/** A raw 2026-07-28 request to /mcp, from a client that declares the Tasks extension. */
function post(
  method: string,
  params: Record<string, unknown>,
  { headers = {}, token = server.sessionToken!, signal }: { headers?: Record<string, string>; token?: string; signal?: AbortSignal } = {},
) {
  return fetch(`${server.url}/mcp`, {
    method: "POST",
    signal: signal ?? null,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "notifications-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": { extensions: { [tasksExtension]: {} } },
        },
      },
    }),
  });
}

/** What the client heard, and a way to wait until it has heard a status. */
function heard(listening: Client) {
  const notes: Array<z.infer<typeof TaskStatusNotificationParamsV2Schema>> = [];
  const waiters: Array<() => void> = [];
  listening.setNotificationHandler("notifications/tasks", { params: z.looseObject({ taskId: z.string() }) }, (params) => {
    notes.push(TaskStatusNotificationParamsV2Schema.parse(params));
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (status: string) => {
    while (!notes.some((note) => note.status === status)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { notes, until };
}

describe("notifications/tasks on /mcp (2026-07-28)", () => {
  it("tells a listening client each status of its task — waiting for a person, then completed — and closes when it is done", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const tasks = await client({ tasks: true });
    expect(await createTask("run_plan", { plan: refundPlan, runId: "told" })).toMatchObject({ resultType: "task", taskId: "told" });

    const { notes, until } = heard(tasks);
    const subscription = await tasks.listen({ taskIds: ["told", "no-such-task"] } as never);
    await until("input_required");
    const asking = notes.find((note) => note.status === "input_required")!;
    // The same task tasks/get answers: the wave's form under its key, the pending items in _meta.
    const [key] = Object.keys((asking as { inputRequests: Record<string, unknown> }).inputRequests);
    expect(key).toMatch(/^planloop_decisions_/);
    expect(notes.every((note) => note.taskId === "told")).toBe(true);

    await tasks.callTool({ name: "decide", arguments: { runId: "told", decisions: [{ pendingId: "step:1", action: "approve" }] } });
    await until("completed");
    expect(await subscription.closed).toBe("graceful");
    expect(notes.at(-1)).toMatchObject({ status: "completed", result: { structuredContent: { runId: "told", status: "completed" } } });
    // One notification per change of status, in the spec's order (a step ending inside a working
    // run is no news); whether the run was still working when the client listened, and whether
    // the decided run was seen working again before it completed, depends on timing.
    expect(notes.map((note) => note.status).join(",")).toMatch(/^(working,)?input_required,(working,)?completed$/);
    expect(refunds).toHaveLength(1);
  });

  it("refuses task notifications to a client that does not declare the extension (-32021)", async () => {
    store = memoryStore();
    const { refund } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const plain = await client({ tasks: false });
    await expect(plain.listen({ taskIds: ["anything"] } as never)).rejects.toMatchObject({ code: -32021 });
  });

  it("keeps one token to 256 open subscriptions, so it cannot take the process's 1,024 from every other token", async () => {
    store = memoryStore();
    const { refund } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    expect(await createTask("run_plan", { plan: refundPlan, runId: "held" })).toMatchObject({ resultType: "task" });
    const leave = new AbortController();
    const listen = (token?: string) =>
      post(
        "subscriptions/listen",
        { notifications: { taskIds: ["held"] } },
        { ...(token === undefined ? {} : { token }), signal: leave.signal },
      );
    try {
      const mine = await Promise.all(Array.from({ length: 257 }, () => listen()));
      const streams = mine.filter((response) => response.headers.get("content-type")?.startsWith("text/event-stream"));
      expect(streams).toHaveLength(256);
      const refused = mine.find((response) => !streams.includes(response))!;
      expect(await refused.json()).toMatchObject({ error: { code: -32603 } });
      const other = (await addToken(store, { name: "other", scopes: ["run", "decide"] })).token;
      expect((await listen(other)).headers.get("content-type")).toMatch(/^text\/event-stream/);
    } finally {
      leave.abort();
    }
  });
});
