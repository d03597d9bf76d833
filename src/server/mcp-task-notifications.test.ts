import { describe, expect, it } from "vitest";
import { serveTaskNotifications, taskListenRequest, undeclaredListen, type ListenRequest } from "./mcp-task-notifications.js";
import { RunChanges } from "./run-changes.js";

const declared = { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
const listen = (taskIds: string[]): ListenRequest => ({ id: "listen:0", params: { notifications: { taskIds }, _meta: declared } });

/** A task whose state the test sets, read as `tasks/get` would answer it. */
function scriptedTask(taskId: string) {
  let state: Record<string, unknown> = { taskId, status: "working" };
  return {
    set(next: Record<string, unknown>) {
      state = { taskId, ...next };
    },
    tasks: {
      detailed: async (id: string) => {
        if (id !== taskId) throw new Error("no such task");
        return state as never;
      },
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("notifications/tasks for one subscription", () => {
  it("acknowledges the ids that name a task, tells each change of status once, and closes when the task is done", async () => {
    const changes = new RunChanges();
    const task = scriptedTask("t1");
    const sent: Array<Record<string, unknown>> = [];
    const serving = serveTaskNotifications(listen(["t1", "t1", "gone"]), {
      tasks: task.tasks,
      changes,
      pollMs: 3_600_000,
      send: (message) => sent.push(message),
      signal: new AbortController().signal,
    });
    await settle();
    changes.changed("t1"); // a step ended: still working, nothing to tell
    await settle();
    task.set({ status: "input_required", inputRequests: { wave1: {} } });
    changes.changed("t1");
    await settle();
    task.set({ status: "working" });
    changes.changed("t1");
    await settle();
    task.set({ status: "completed", result: { content: [] } });
    changes.changed("t1");
    await serving;
    expect(sent[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { taskIds: ["t1"] }, _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" } },
    });
    expect(sent.slice(1, -1).map((message) => (message.params as { status: string }).status)).toEqual([
      "working",
      "input_required",
      "working",
      "completed",
    ]);
    expect(sent.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: "listen:0",
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" } },
    });
    expect(changes.waiters).toBe(0);
  });

  it("stops at once when the client goes, leaving nothing waiting and sending no result", async () => {
    const changes = new RunChanges();
    const task = scriptedTask("t2");
    const sent: Array<Record<string, unknown>> = [];
    const client = new AbortController();
    const serving = serveTaskNotifications(listen(["t2"]), {
      tasks: task.tasks,
      changes,
      pollMs: 3_600_000,
      send: (m) => sent.push(m),
      signal: client.signal,
    });
    await settle();
    expect(changes.waiters).toBe(1);
    client.abort();
    await serving;
    expect(changes.waiters).toBe(0);
    expect(sent).toHaveLength(2); // the acknowledgement and the task as it was
  });

  it("reads a listen for task ids, and refuses it to a client that does not declare the extension", () => {
    expect(
      taskListenRequest({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } }),
    ).toBeUndefined();
    expect(
      taskListenRequest({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { notifications: { taskIds: [1] } } }),
    ).toBeUndefined();
    const request = taskListenRequest({
      jsonrpc: "2.0",
      id: 3,
      method: "subscriptions/listen",
      params: { notifications: { taskIds: ["a"] } },
    });
    expect(request).toBeDefined();
    expect(undeclaredListen(request!)).toMatchObject({ id: 3, error: { code: -32021 } });
    expect(undeclaredListen(listen(["a"]))).toBeUndefined();
  });
});
