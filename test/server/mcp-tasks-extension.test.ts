// The Tasks extension (io.modelcontextprotocol/tasks) on /mcp's 2026-07-28 line, spoken on the
// wire as the spec writes it, every answer checked against the extension's own generated schemas
// (@modelcontextprotocol/ext-tasks/core/v2): a run tool answers with a task handle, tasks/get
// reads the run, tasks/update decides what it waits for, tasks/cancel cancels it.
import { afterEach, describe, expect, it } from "vitest";
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  UpdateTaskResultV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { defineTool, memoryStore, type CheckpointStore } from "planloop";
import { z } from "zod";
import { seededRandom } from "../../src/core/seeded-random.js";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";
import { refundPlan, refundTool } from "../helpers/refund-tool.js";

let store: CheckpointStore;
let server: RunServer;
afterEach(async () => {
  await server.close({ abortRuns: true });
  await store.close();
});

const tasksExtension = "io.modelcontextprotocol/tasks";
let nextId = 1;

/** One 2026-07-28 request as a client sends it: the per-request envelope in `_meta`, the routing headers. */
async function rpc(method: string, params: Record<string, unknown>, options: { tasks?: boolean } = {}) {
  const capabilities = options.tasks === false ? {} : { extensions: { [tasksExtension]: {} } };
  const name = String(params.name ?? params.taskId ?? "");
  const response = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${server.sessionToken!}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === "" ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  const body = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .at(-1)
        ?.slice(6) ?? text);
  return JSON.parse(body) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

async function poll(taskId: string, until: (status: string) => boolean) {
  for (let tries = 0; tries < 400; tries += 1) {
    const answer = await rpc("tasks/get", { taskId });
    const status = String(answer.result?.status);
    if (until(status)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`task ${taskId} never got there`);
}

describe("the Tasks extension on /mcp (2026-07-28)", () => {
  it("answers a run tool with a task handle; tasks/get reads the run; tasks/update decides it once; the result is inlined", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const created = await rpc("tools/call", { name: "run_plan", arguments: { plan: refundPlan, runId: "ext-task" } });
    expect(created.error).toBeUndefined();
    const handle = CreateTaskResultV2Schema.parse(created.result);
    expect(handle).toMatchObject({ resultType: "task", taskId: "ext-task", status: "working" });
    expect(created.result).not.toHaveProperty("result");
    expect(created.result).not.toHaveProperty("inputRequests");

    const waiting = await poll("ext-task", (status) => status !== "working");
    const task = GetTaskResultV2Schema.parse(waiting.result);
    expect(task).toMatchObject({ resultType: "complete", status: "input_required" });
    const requests = (task as { inputRequests: Record<string, { method: string; params: { requestedSchema: unknown } }> }).inputRequests;
    const [key] = Object.keys(requests);
    expect(requests[key!]).toMatchObject({ method: "elicitation/create", params: { requestedSchema: { required: ["step:1"] } } });

    const answer = { [key!]: { action: "accept", content: { "step:1": true } } };
    for (let times = 0; times < 2; times += 1) {
      const ack = await rpc("tasks/update", { taskId: "ext-task", inputResponses: answer });
      expect(ack.error).toBeUndefined();
      UpdateTaskResultV2Schema.parse(ack.result);
    }
    // A key that was never asked for is ignored.
    await rpc("tasks/update", { taskId: "ext-task", inputResponses: { "not-asked": { action: "accept", content: {} } } });
    const done = GetTaskResultV2Schema.parse((await poll("ext-task", (status) => status === "completed")).result);
    expect(done).toMatchObject({ status: "completed", result: { structuredContent: { runId: "ext-task", status: "completed" } } });
    expect(refunds).toHaveLength(1);

    // The same task, read by a 2025-11-25 client with its own tasks/get: one store, one task.
    const legacy = new Client({ name: "legacy", version: "1.0.0" });
    await legacy.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${server.sessionToken!}` } },
      }),
    );
    expect((await legacy.experimental.tasks.getTask("ext-task")).status).toBe("completed");
    await legacy.close();
  });

  it("answers a failed run as a completed task with an isError result, and cancels a running one", async () => {
    store = memoryStore();
    const tools = [
      defineTool({
        name: "broken",
        description: "Fails",
        input: z.object({}),
        execute: () => Promise.reject(new Error("the disk is full")),
      }),
      defineTool({
        name: "slow",
        description: "Waits until aborted",
        input: z.object({}),
        execute: (_input, { signal }) =>
          new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted")))),
      }),
    ];
    server = await startRunServer({ store, tools, pollMs: 20 });
    const failing = { steps: [{ id: 1, task: "break", tool: "broken", args: {} }] };
    await rpc("tools/call", { name: "run_plan", arguments: { plan: failing, runId: "ext-failed" } });
    const failed = GetTaskResultV2Schema.parse((await poll("ext-failed", (status) => status !== "working")).result);
    expect(failed).toMatchObject({ status: "completed", result: { isError: true } });

    const slow = { steps: [{ id: 1, task: "wait", tool: "slow", args: {} }] };
    await rpc("tools/call", { name: "run_plan", arguments: { plan: slow, runId: "ext-slow" } });
    const cancelled = await rpc("tasks/cancel", { taskId: "ext-slow" });
    CancelTaskResultV2Schema.parse(cancelled.result);
    expect(GetTaskResultV2Schema.parse((await poll("ext-slow", (status) => status === "cancelled")).result)).toMatchObject({
      status: "cancelled",
    });
  });

  it("gives no task to a client that does not declare the extension, and refuses it the task methods (-32021); an unknown task is -32602", async () => {
    store = memoryStore();
    const { refund } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const plain = await rpc("tools/call", { name: "run_plan", arguments: { plan: refundPlan, runId: "plain" } }, { tasks: false });
    expect(plain.result).toMatchObject({ structuredContent: { runId: "plain", status: "waiting" } });
    expect(plain.result?.resultType).not.toBe("task");
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const refused = await rpc(method, { taskId: "plain", inputResponses: {} }, { tasks: false });
      expect(refused.error?.code, method).toBe(-32021);
    }
    for (const taskId of ["no-such-task", "plain", "__proto__", "x/plan:2"]) {
      const unknown = await rpc("tasks/get", { taskId });
      expect(unknown.error?.code, taskId).toBe(-32602);
      expect((await rpc("tasks/cancel", { taskId })).error?.code, taskId).toBe(-32602);
    }
    // A run that cannot start is no task: the call answers with why.
    const refused = await rpc("tools/call", { name: "run_plan", arguments: { plan: refundPlan, runId: "plain" } });
    expect(refused.result).toMatchObject({ isError: true });
  });

  it("decides a wave once when tasks/update (sent 2 to 4 times) and the decide tool race for it at seeded moments (12 rounds)", async () => {
    store = memoryStore();
    const { refund, refunds } = refundTool();
    server = await startRunServer({ store, tools: [refund], pollMs: 20 });
    const random = seededRandom(56);
    for (let round = 0; round < 12; round += 1) {
      const runId = `race-${round}`;
      const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: `R${round}` } }] };
      await rpc("tools/call", { name: "run_plan", arguments: { plan, runId } });
      const waiting = await poll(runId, (status) => status === "input_required");
      const [key] = Object.keys((waiting.result as { inputRequests: Record<string, unknown> }).inputRequests);
      const inputResponses = { [key!]: { action: "accept", content: { "step:1": true } } };
      // Each request starts after a seeded delay of 0–3 ms, so they meet in different orders and overlaps.
      const later = async <T>(send: () => Promise<T>) => {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
        return send();
      };
      const updates = Array.from({ length: 2 + Math.floor(random() * 3) }, () =>
        later(() => rpc("tasks/update", { taskId: runId, inputResponses })),
      );
      const decision = later(() =>
        rpc(
          "tools/call",
          { name: "decide", arguments: { runId, decisions: [{ pendingId: "step:1", action: "approve" }] } },
          { tasks: false },
        ),
      );
      for (const ack of await Promise.all(updates)) expect(ack.error, runId).toBeUndefined();
      await decision;
      const done = GetTaskResultV2Schema.parse((await poll(runId, (status) => status === "completed")).result);
      expect(done, runId).toMatchObject({ result: { structuredContent: { status: "completed" } } });
    }
    expect(refunds.map((line) => line.split(" ")[0])).toEqual(Array.from({ length: 12 }, (_, round) => `R${round}`));
  });
});
