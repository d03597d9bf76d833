// MCP tasks (the 2025-11-25 spec) on planloop mcp over stdio, driven by the MCP SDK's own
// client: a plan run as a task with progress, a wait answered through an elicitation, a task
// cancelled while its tool runs (the tool aborted within a second), and a server restarted
// while its task waits — the new process asks the person and the result is fetched from it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { CallToolResultSchema, ElicitRequestSchema, type ElicitRequest, type GetTaskResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp } from "../helpers/mcp-command.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-tasks-"));
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  const store = `sqlite:${join(dir, "runs.sqlite")}`;
  const lines = (prefix: string) =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith(prefix));
  return { log, store, lines };
}

async function connect(store: string, log: string, options: { forms?: boolean } = {}): Promise<Client> {
  const client = await connectMcp(store, log, options.forms ? { elicitation: { form: {} } } : {});
  clients.push(client);
  return client;
}

/** Reads the task until it has the status (the client asks every 50 ms). */
async function until(client: Client, taskId: string, status: string): Promise<GetTaskResult> {
  for (let tries = 0; tries < 400; tries += 1) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

const payPlan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 7 } }] };
const holdPlan = { steps: [{ id: 1, task: "hold", tool: "hold", args: {} }] };

/** `run_plan` called as a task: the task created, at once. */
function planTask(client: Client, runId: string, plan: unknown, task: { ttl?: number } = {}) {
  return client.request({ method: "tools/call", params: { name: "run_plan", arguments: { runId, plan }, task } }, CreateTaskResultSchema);
}

/** Waits until the hold tool has started. */
async function heldIn(lines: (prefix: string) => string[]): Promise<void> {
  for (let tries = 0; lines("held").length === 0 && tries < 400; tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("planloop mcp: tasks", () => {
  it("runs a plan as a task: the task is the run, with a progress notification per step, its result fetched", async () => {
    const { log, store } = setup();
    const client = await connect(store, log);
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "run_plan")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((tool) => tool.name === "double_it")?.execution).toEqual({ taskSupport: "optional" });
    const plan = {
      steps: [1, 2, 3].map((id) => ({ id, task: "pause", tool: "pause", args: { ms: 30 }, depends_on: id === 1 ? [] : [id - 1] })),
    };
    const progress: number[] = [];
    const seen: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "run_plan", arguments: { plan, runId: "as-task" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 }, onprogress: (update) => void progress.push(update.progress) },
    )) {
      if (message.type === "taskCreated") expect(message.task).toMatchObject({ taskId: "as-task", status: "working", ttl: 60_000 });
      if (message.type === "taskStatus") seen.push(message.task.status);
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(seen.at(-1)).toBe("completed");
    expect(result).toMatchObject({ structuredContent: { runId: "as-task", status: "completed", output: 30 } });
    // The steps ended while the client polled: each one's progress came on the call's own token.
    expect(progress).toEqual([1, 2, 3]);
    // The task stays readable, and listed.
    expect((await client.experimental.tasks.getTask("as-task")).status).toBe("completed");
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toEqual(["as-task"]);
  });

  it("asks the person through an elicitation when the run waits, and goes on with the answer", async () => {
    const { log, store, lines } = setup();
    const client = await connect(store, log, { forms: true });
    const asked: ElicitRequest["params"][] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { "step:1": true } };
    });
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "run_plan", arguments: { plan: payPlan, runId: "asks" } },
      CallToolResultSchema,
      { task: {} },
    )) {
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: "form",
      requestedSchema: { properties: { "step:1": { type: "boolean", title: "Approve pay?" } }, required: ["step:1"] },
      _meta: { "planloop/pending": [{ id: "step:1", kind: "approval", name: "pay" }] },
    });
    expect(result).toMatchObject({ structuredContent: { runId: "asks", status: "completed", output: "paid 7" } });
    expect(lines("paid")).toEqual(["paid 7 asks/1"]);
  });

  it("cancels a task: the run ends cancelled and its running tool is aborted within a second", async () => {
    const { log, store, lines } = setup();
    const client = await connect(store, log);
    const created = await planTask(client, "held", holdPlan);
    expect(created.task.taskId).toBe("held");
    await heldIn(lines);
    const asked = Date.now();
    const cancelled = await client.experimental.tasks.cancelTask("held");
    expect(cancelled.status).toBe("cancelled");
    const abortedAt = Number(lines("aborted")[0]?.split(" ")[1]);
    expect(abortedAt - asked).toBeLessThan(1000);
    expect((await client.callTool({ name: "get_run", arguments: { runId: "held" } })).structuredContent).toMatchObject({
      status: "cancelled",
    });
  });

  it("refuses a second client's server writing a run another server runs: its lease", async () => {
    const { log, store, lines } = setup();
    const first = await connect(store, log);
    const second = await connect(store, log);
    await planTask(first, "owned", holdPlan);
    await heldIn(lines);
    const refused = await second.callTool({ name: "cancel_run", arguments: { runId: "owned" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/is being run by .*nothing was started/);
    expect(lines("aborted")).toEqual([]);
    expect((await first.experimental.tasks.cancelTask("owned")).status).toBe("cancelled");
  });

  it("keeps a waiting task across a restart: the new process asks the person on tasks/result, and answers with the result", async () => {
    const { log, store, lines } = setup();
    const first = await connect(store, log);
    const created = await planTask(first, "survives", payPlan, { ttl: 600_000 });
    expect(created.task.taskId).toBe("survives");
    const waiting = await until(first, "survives", "input_required");
    expect(waiting.statusMessage).toContain("step:1 (approval)");
    expect(waiting._meta?.["planloop/pending"]).toMatchObject([{ id: "step:1", kind: "approval" }]);
    await first.close();

    const second = await connect(store, log, { forms: true });
    second.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { "step:1": true } }));
    expect((await second.experimental.tasks.getTask("survives")).status).toBe("input_required");
    const result = await second.experimental.tasks.getTaskResult("survives", CallToolResultSchema);
    expect(result).toMatchObject({ structuredContent: { runId: "survives", status: "completed", output: "paid 7" } });
    expect(lines("paid")).toEqual(["paid 7 survives/1"]);
  });
});
