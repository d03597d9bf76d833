import { describe, expect, it } from "vitest";
import { serveTaskNotifications, type ListenRequest } from "./mcp-task-notifications.js";
import { RunChanges } from "./run-changes.js";

const declared = { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
const listen = (taskIds: string[]): ListenRequest => ({ id: "listen:0", params: { notifications: { taskIds }, _meta: declared } });

/** Tasks that are all completed, counting each read of the store. */
function countedTasks(existing: (taskId: string) => boolean) {
  const read: string[] = [];
  return {
    read,
    tasks: {
      detailed: async (taskId: string) => {
        read.push(taskId);
        if (!existing(taskId)) throw new Error("no such task");
        return { taskId, status: "completed" } as never;
      },
    },
  };
}

describe("a listen naming many task ids", () => {
  it("reads at most the first 1,000 distinct ids it names, not one read per id of a 1 MB body", async () => {
    // 100,000 ids fit in the 1 MB body /mcp takes: before, each was a read of the store (~2 s on
    // a memory store, 100,000 round trips on Postgres) for one request.
    const { read, tasks } = countedTasks(() => false);
    const taskIds = Array.from({ length: 100_000 }, (_, index) => `bogus-${index}`);
    const sent: Array<Record<string, unknown>> = [];
    await serveTaskNotifications(listen(taskIds), {
      tasks,
      changes: new RunChanges(),
      pollMs: 3_600_000,
      send: (message) => sent.push(message),
      signal: new AbortController().signal,
    });
    expect(read.length).toBeLessThanOrEqual(1_000);
    expect(sent[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [] } } });
  });

  it("stops looking ids up once the client has gone", async () => {
    const { read, tasks } = countedTasks(() => false);
    const client = new AbortController();
    client.abort();
    await serveTaskNotifications(listen(["a", "b", "c"]), {
      tasks,
      changes: new RunChanges(),
      pollMs: 3_600_000,
      send: () => {},
      signal: client.signal,
    });
    expect(read).toEqual([]);
  });

  it("still follows up to 100 tasks among the ids it reads", async () => {
    const { tasks } = countedTasks((taskId) => Number(taskId.slice(1)) % 2 === 0);
    const sent: Array<Record<string, unknown>> = [];
    await serveTaskNotifications(listen(Array.from({ length: 400 }, (_, index) => `t${index}`)), {
      tasks,
      changes: new RunChanges(),
      pollMs: 3_600_000,
      send: (message) => sent.push(message),
      signal: new AbortController().signal,
    });
    const acknowledged = (sent[0]!.params as { notifications: { taskIds: string[] } }).notifications.taskIds;
    expect(acknowledged).toHaveLength(100);
    expect(acknowledged[99]).toBe("t198");
  });
});
