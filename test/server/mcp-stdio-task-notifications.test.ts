// notifications/tasks over stdio (2026-07-28): `planloop mcp` answers a listen for task ids on
// the connection, as /mcp does over HTTP. Spoken as raw JSON lines: the SDK's 2.x client refuses
// a `resultType: "task"` answer to its own tools/call, and the task must exist to be listened to.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { TaskStatusNotificationParamsV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { afterEach, describe, expect, it } from "vitest";
import { mcpServerArgs } from "../helpers/mcp-command.js";
import { repoRoot } from "../helpers/paths.js";

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.stdin.end();
  child?.kill();
});

const envelope = (capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "stdio-notifications", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});
const withTasks = { extensions: { "io.modelcontextprotocol/tasks": {} } };

describe("notifications/tasks over planloop mcp (stdio, 2026-07-28)", () => {
  it("acknowledges a listen for a task, tells it waiting for a person and then completed, and closes the listen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planloop-mcp-notes-"));
    const log = join(dir, "calls.log");
    writeFileSync(log, "");
    child = spawn(process.execPath, mcpServerArgs(`sqlite:${join(dir, "runs.sqlite")}`), {
      cwd: repoRoot,
      env: { ...process.env, PLANLOOP_TEST_LOG: log },
    });
    const messages: Array<Record<string, any>> = [];
    const waiters: Array<() => void> = [];
    createInterface({ input: child.stdout }).on("line", (line) => {
      messages.push(JSON.parse(line) as Record<string, any>);
      for (const wake of waiters.splice(0)) wake();
    });
    const until = async (found: (message: Record<string, any>) => boolean) => {
      while (!messages.some(found)) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages.find(found)!;
    };
    const send = (message: Record<string, unknown>) => child!.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

    const plan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 7 } }] };
    send({
      id: 1,
      method: "tools/call",
      params: { name: "run_plan", arguments: { plan, runId: "stdio-told" }, _meta: envelope(withTasks) },
    });
    expect((await until((message) => message.id === 1)).result).toMatchObject({ resultType: "task", taskId: "stdio-told" });

    // A listen from a client that does not declare the extension is refused; one that does is acknowledged.
    send({ id: "listen:0", method: "subscriptions/listen", params: { notifications: { taskIds: ["stdio-told"] }, _meta: envelope({}) } });
    expect((await until((message) => message.id === "listen:0")).error).toMatchObject({ code: -32021 });
    send({
      id: "listen:1",
      method: "subscriptions/listen",
      params: { notifications: { taskIds: ["stdio-told", "nope"] }, _meta: envelope(withTasks) },
    });
    const ack = await until((message) => message.method === "notifications/subscriptions/acknowledged");
    expect(ack.params).toEqual({
      notifications: { taskIds: ["stdio-told"] },
      _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" },
    });

    const told = (status: string) => (message: Record<string, any>) =>
      message.method === "notifications/tasks" && message.params.status === status;
    TaskStatusNotificationParamsV2Schema.parse((await until(told("input_required"))).params);
    const decisions = [{ pendingId: "step:1", action: "approve" }];
    send({ id: 2, method: "tools/call", params: { name: "decide", arguments: { runId: "stdio-told", decisions }, _meta: envelope({}) } });
    const completed = await until(told("completed"));
    expect(TaskStatusNotificationParamsV2Schema.parse(completed.params)).toMatchObject({
      result: { structuredContent: { status: "completed" } },
    });
    expect((await until((message) => message.id === "listen:1")).result).toEqual({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/subscriptionId": "listen:1" },
    });
    const statuses = messages.filter((message) => message.method === "notifications/tasks").map((message) => message.params.status);
    expect(statuses.join(",")).toMatch(/^(working,)?input_required,(working,)?completed$/);
  });
});
