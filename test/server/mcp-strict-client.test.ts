// /mcp on planloop serve read by the MCP SDK's client as a strict client (issue 56): the
// pipelines planloop mcp offers, a taken runId as a task, a failed run's isError both ways, a
// refused task in tasks/list, a tool that is not a task called as one, a cursor never given.
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { CallToolResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { definePipeline, defineTool, memoryStore, type CheckpointStore } from "planloop";
import { z } from "zod";
import { startRunServer, type RunServer } from "../../src/server/start-server.js";

let store: CheckpointStore;
let server: RunServer;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close({ abortRuns: true });
  await store.close();
});

const echo = defineTool({ name: "echo", description: "Echoes", input: z.object({ text: z.string() }), execute: ({ text }) => text });
const broken = defineTool({
  name: "broken",
  description: "Always throws",
  input: z.object({}),
  execute: () => {
    throw new Error("the disk is on fire");
  },
});
const shout = definePipeline({
  name: "shout",
  description: "Echoes the text",
  input: z.object({ text: z.string() }),
  plan: ({ text }) => ({ steps: [{ id: 1, task: "echo", tool: "echo", args: { text } }] }),
});

async function connect(): Promise<Client> {
  store = memoryStore();
  server = await startRunServer({ store, tools: [echo, broken], pipelines: [shout], pollMs: 20 });
  const client = new Client({ name: "strict", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${server.sessionToken}` } },
    }),
  );
  clients.push(client);
  return client;
}

const asTask = (client: Client, name: string, args: Record<string, unknown>) =>
  client.request({ method: "tools/call", params: { name, arguments: args, task: {} } }, CreateTaskResultSchema);

/** Reads the task until it stops working (the run is in this process: a few polls). */
async function settled(client: Client, taskId: string) {
  for (let tries = 0; tries < 500; tries += 1) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status !== "working") return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} kept working`);
}

const echoPlan = { steps: [{ id: 1, task: "echo", tool: "echo", args: { text: "hi" } }] };
const brokenPlan = { steps: [{ id: 1, task: "break", tool: "broken", args: {} }] };

describe("/mcp read by a strict client", () => {
  it("lists and runs the pipelines planloop mcp offers", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((listed) => listed.name === "shout");
    expect(tool).toMatchObject({ description: "Echoes the text", inputSchema: { properties: { text: { type: "string" } } } });
    const answer = await client.callTool({ name: "shout", arguments: { text: "loud" } });
    expect(answer).toMatchObject({ structuredContent: { status: "completed", output: "loud" } });
  });

  it("creates a task for a taken runId working, fails it with why, and leaves the old run's task and answer alone", async () => {
    const client = await connect();
    expect((await client.callTool({ name: "run_plan", arguments: { plan: echoPlan, runId: "mine" } })).isError).toBeFalsy();
    const created = await asTask(client, "run_plan", { plan: brokenPlan, runId: "mine" });
    expect(created.task.status).toBe("working");
    // Not the old run's id: that run is not this task's.
    expect(created.task.taskId).not.toBe("mine");
    const task = await settled(client, created.task.taskId);
    expect(task).toMatchObject({ status: "failed", statusMessage: expect.stringContaining('"mine" exists already') });
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('"output":"hi"');
    await expect(client.experimental.tasks.getTask("mine")).rejects.toThrow(/not found/i);

    // A run started as a task, asked for again as a task: the same.
    await asTask(client, "run_plan", { plan: echoPlan, runId: "tasked" });
    expect((await settled(client, "tasked")).status).toBe("completed");
    const again = await asTask(client, "run_plan", { plan: brokenPlan, runId: "tasked" });
    expect(again.task).toMatchObject({ status: "working" });
    expect(again.task.taskId).not.toBe("tasked");
    expect((await settled(client, again.task.taskId)).status).toBe("failed");
    expect((await client.experimental.tasks.getTask("tasked")).status).toBe("completed");
  });

  it("answers a failed run with isError, as a plain call and as a task's result", async () => {
    const client = await connect();
    const plain = await client.callTool({ name: "run_plan", arguments: { plan: brokenPlan, runId: "plain-fail" } });
    expect(plain).toMatchObject({ isError: true, structuredContent: { status: "failed" } });
    await asTask(client, "run_plan", { plan: brokenPlan, runId: "task-fail" });
    expect((await settled(client, "task-fail")).status).toBe("failed");
    const result = await client.experimental.tasks.getTaskResult("task-fail", CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, structuredContent: { status: "failed" } });
    // Reading a failed run is no error: get_run did what it was asked.
    expect((await client.callTool({ name: "get_run", arguments: { runId: "plain-fail" } })).isError).toBeFalsy();
  });

  it("lists a task whose plan failed validation, as tasks/get finds it", async () => {
    const client = await connect();
    await asTask(client, "run_plan", { plan: echoPlan, runId: "fine" });
    const created = await asTask(client, "run_plan", { plan: { steps: [{ id: 1, task: "x", tool: "nope" }] }, runId: "invalid" });
    expect(created.task).toMatchObject({ taskId: "invalid", status: "working" });
    expect(await client.experimental.tasks.getTask("invalid")).toMatchObject({
      status: "failed",
      statusMessage: expect.stringContaining("nope"),
    });
    const listed = (await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId);
    expect(listed.sort()).toEqual(["fine", "invalid"]);
  });

  it("answers -32601 for a tool that is not a task called as one, and runs nothing", async () => {
    const client = await connect();
    await client.callTool({ name: "run_plan", arguments: { plan: echoPlan, runId: "r1" } });
    for (const name of ["get_run", "cancel_run", "list_runs", "decide"])
      await expect(asTask(client, name, { runId: "r1" })).rejects.toMatchObject({ code: -32601 });
    expect((await client.callTool({ name: "get_run", arguments: { runId: "r1" } })).structuredContent).toMatchObject({
      status: "completed",
    });
  });

  it("refuses a tools/list cursor it never gave", async () => {
    const client = await connect();
    expect((await client.listTools()).nextCursor).toBeUndefined();
    for (const cursor of ["", "garbage", "eyJ9"])
      await expect(client.request({ method: "tools/list", params: { cursor } }, ListToolsResultSchema)).rejects.toMatchObject({
        code: -32602,
      });
  });
});
