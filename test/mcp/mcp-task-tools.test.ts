// Tools an MCP server runs only as tasks (taskSupport "required"), called by planloop as an MCP
// client: the task created, followed until it ends, its result the step's output; a failed
// task's error is the step's; a call aborted cancels the task on the server. The server is the
// SDK's own, started by the test and linked to the client in memory.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { executePlan } from "planloop";
import { mcpTools } from "planloop/mcp";
import { z } from "zod";

/** What a task of each tool does when the client looks at it (tasks/get goes to the store): `sum` ends at the second look, `lookup` fails, `forever` never ends. */
const settles: Record<
  string,
  (store: InMemoryTaskStore, taskId: string, args: { a: number; b: number }, looks: number) => Promise<void> | undefined
> = {
  sum: (store, taskId, { a, b }, looks) =>
    looks === 2
      ? store.storeTaskResult(taskId, "completed", { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } })
      : undefined,
  lookup: (store, taskId, _args, looks) =>
    looks > 1
      ? undefined
      : store.storeTaskResult(taskId, "failed", { content: [{ type: "text", text: "no such account: 7" }], isError: true }),
  forever: () => undefined,
};

/** The server's task store, settling each task as `settles` says when it is looked at. */
class SettlingStore extends InMemoryTaskStore {
  readonly work = new Map<string, { tool: string; args: { a: number; b: number }; looks: number }>();
  override async getTask(taskId: string, sessionId?: string) {
    const work = this.work.get(taskId);
    if (work !== undefined) {
      work.looks += 1;
      await settles[work.tool]!(this, taskId, work.args, work.looks);
    }
    return super.getTask(taskId, sessionId);
  }
}

/** A server with three task-only tools (`settles`), linked to an SDK client in memory. */
async function taskServer() {
  const store = new SettlingStore();
  const seen: string[] = [];
  const server = new McpServer(
    { name: "tasks", version: "1.0.0" },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
  );
  let created: (taskId: string) => void = () => undefined;
  const wasCreated = new Promise<string>((resolve) => (created = resolve));
  for (const name of Object.keys(settles))
    server.experimental.tasks.registerToolTask(
      name,
      { description: `${name}, as a task only`, inputSchema: { a: z.number(), b: z.number() }, execution: { taskSupport: "required" } },
      {
        createTask: async (args, extra) => {
          seen.push(`create ${name}`);
          const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 10 });
          store.work.set(task.taskId, { tool: name, args, looks: 0 });
          created(task.taskId);
          return { task };
        },
        getTask: async (_args, extra) => (await extra.taskStore.getTask(extra.taskId))!,
        getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
      },
    );
  const client = new Client({ name: "planloop-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // What the client sent, in order (requests by method).
  const sent: string[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    if ("method" in message) sent.push(message.method);
    return send(message, options);
  };
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, store, seen, sent, wasCreated, close: () => Promise.all([client.close(), server.close()]) };
}

describe("MCP tools that run only as tasks", () => {
  it("creates the task, follows it to its end, and gives its result as the step's output", async () => {
    const server = await taskServer();
    try {
      const notices: string[] = [];
      const tools = await mcpTools(server.client, { onNotice: (line) => notices.push(line) });
      expect(tools.map((tool) => tool.name).sort()).toEqual(["forever", "lookup", "sum"]);
      expect(notices).toEqual([]);
      const result = await executePlan({ plan: { steps: [{ id: 1, task: "add", tool: "sum", args: { a: 2, b: 3 } }] }, tools });
      expect(result.status).toBe("completed");
      expect(result.steps["1"]).toMatchObject({ status: "succeeded", output: { sum: 5 } });
      expect(server.seen).toEqual(["create sum"]);
      // Followed: looked at while working, then once more when it had ended, and its result read.
      expect(server.sent.filter((method) => method.startsWith("t"))).toEqual([
        "tools/list",
        "tools/call",
        "tasks/get",
        "tasks/get",
        "tasks/result",
      ]);
    } finally {
      await server.close();
    }
  });

  it("gives a failed task's error to the step, with the server's words", async () => {
    const server = await taskServer();
    try {
      const tools = await mcpTools(server.client, { include: ["lookup"] });
      const result = await executePlan({ plan: { steps: [{ id: 1, task: "look up", tool: "lookup", args: { a: 7, b: 0 } }] }, tools });
      expect(result.steps["1"]).toMatchObject({ status: "failed" });
      expect(JSON.stringify(result.steps["1"]!.error)).toContain("no such account: 7");
    } finally {
      await server.close();
    }
  });

  for (const when of ["as the task is created", "while it is followed"])
    it(`cancels the task on the server when the call is aborted ${when}`, async () => {
      const server = await taskServer();
      try {
        const tools = await mcpTools(server.client, { include: ["forever"] });
        const controller = new AbortController();
        const running = executePlan({
          plan: { steps: [{ id: 1, task: "wait", tool: "forever", args: { a: 1, b: 1 } }] },
          tools,
          signal: controller.signal,
        });
        const taskId = await server.wasCreated;
        if (when === "while it is followed")
          for (let tries = 0; tries < 400 && !server.sent.includes("tasks/get"); tries += 1)
            await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort(new Error("the person stopped it"));
        expect((await running).status).toBe("cancelled");
        // tasks/cancel goes out as the call is aborted; the server's store says so once it is read.
        let status: string | undefined;
        for (let tries = 0; tries < 400 && status !== "cancelled"; tries += 1) {
          status = (await server.store.getTask(taskId))?.status;
          if (status !== "cancelled") await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(status).toBe("cancelled");
        expect(server.sent).toContain("tasks/cancel");
      } finally {
        await server.close();
      }
    });

  it("leaves no task of the server running, whatever the moment the call is aborted (seeded)", async () => {
    await fc.assert(
      // The moment: so many microtask turns after the run starts (creation, following and the rest are all in there).
      fc.asyncProperty(fc.nat(400), async (turns) => {
        const server = await taskServer();
        try {
          const tools = await mcpTools(server.client, { include: ["forever"] });
          const controller = new AbortController();
          const running = executePlan({
            plan: { steps: [{ id: 1, task: "wait", tool: "forever", args: { a: 1, b: 1 } }] },
            tools,
            signal: controller.signal,
          });
          for (let turn = 0; turn < turns; turn += 1) await Promise.resolve();
          controller.abort(new Error("stopped"));
          expect((await running).status).toBe("cancelled");
          // Every task the server made (none, if the abort came before the call) ends cancelled.
          for (const taskId of server.store.work.keys()) {
            let status: string | undefined;
            for (let tries = 0; tries < 400 && status !== "cancelled"; tries += 1) {
              status = (await server.store.getTask(taskId))?.status;
              if (status !== "cancelled") await new Promise((resolve) => setTimeout(resolve, 5));
            }
            expect(status).toBe("cancelled");
          }
        } finally {
          await server.close();
        }
      }),
      { seed: 56, numRuns: 40 },
    );
  });
});
