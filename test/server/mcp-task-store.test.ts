// MCP tasks kept in planloop's store: a task lapses after its ttl (by the injected clock), is
// seen only by the session that made it, reads its status from its run, and pages in tasks/list.
import { describe, expect, it } from "vitest";
import { memoryStore } from "planloop";
import { RunTasks } from "../../src/server/mcp-tasks.js";
import { RunHost } from "../../src/runs/run-host.js";

const asked = (runId: string) => ({ method: "tools/call", params: { name: "run_plan", arguments: { runId }, task: {} } });

describe("RunTasks", () => {
  it("lets a task go after its ttl, and shows it to its own session only", async () => {
    const store = memoryStore();
    let now = 1_000_000;
    const tasks = new RunTasks({ store, host: new RunHost({ store, tools: [] }), now: () => now });
    const task = await tasks.createTask({ ttl: 60_000, context: { runId: "r1" } }, 1, asked("r1"), "session-a");
    expect(task).toMatchObject({ taskId: "r1", status: "working", statusMessage: "starting", ttl: 60_000 });
    expect(await tasks.getTask("r1", "session-b")).toBeNull();
    expect(await tasks.getTask("r1", "session-a")).not.toBeNull();
    now += 60_001;
    expect(await tasks.getTask("r1", "session-a")).toBeNull();
    expect(await store.getValue("planloop:mcp:task:r1")).toBeNull();
  });

  it("a second task under a run's id does not overwrite the first: its ttl and outcome stay (outside review, issue 53)", async () => {
    const store = memoryStore();
    const tasks = new RunTasks({ store, host: new RunHost({ store, tools: [] }) });
    await tasks.createTask({ ttl: 3_600_000, context: { runId: "bobs-run" } }, 1, asked("bobs-run"), "bob");
    await expect(
      tasks.createTask({ ttl: 1_000, context: { runId: "bobs-run", error: "plan: no tool nope" } }, 2, asked("bobs-run"), "alice"),
    ).rejects.toThrow(/bobs-run" is followed as a task already/);
    expect(await tasks.getTask("bobs-run", "bob")).toMatchObject({ status: "working", ttl: 3_600_000 });
  });

  it("fails a task whose run could not start, with why; a task asks for no more than 30 days", async () => {
    const store = memoryStore();
    const tasks = new RunTasks({ store, host: new RunHost({ store, tools: [] }) });
    const failed = await tasks.createTask({ context: { runId: "r2", error: "plan: no tool nope" } }, 1, asked("r2"));
    expect(failed).toMatchObject({ status: "working", ttl: 7 * 24 * 3600_000 });
    expect(await tasks.getTask("r2")).toMatchObject({ status: "failed", statusMessage: "plan: no tool nope" });
    expect((await tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual(["r2"]);
    // A run started under the refused task's id since is listed once.
    await store.createRun({ runId: "r2", entry: "test", at: Date.now() });
    expect((await tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual(["r2"]);
    expect(await tasks.getTaskResult("r2")).toEqual({ content: [{ type: "text", text: "plan: no tool nope" }], isError: true });
    expect((await tasks.createTask({ ttl: 1e12, context: { runId: "r3" } }, 2, asked("r3"))).ttl).toBe(30 * 24 * 3600_000);
  });

  it("pages tasks/list over the store's runs, newest first", async () => {
    const store = memoryStore();
    const tasks = new RunTasks({ store, host: new RunHost({ store, tools: [] }) });
    for (let i = 0; i < 60; i += 1) {
      const runId = `r${String(i).padStart(2, "0")}`;
      await store.createRun({ runId, entry: "test", at: i });
      if (i % 2 === 0) await tasks.createTask({ context: { runId } }, i, asked(runId));
    }
    const first = await tasks.listTasks();
    expect(first.nextCursor).toBeDefined();
    const second = await tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    const ids = [...first.tasks, ...second.tasks].map((task) => task.taskId);
    expect(ids).toHaveLength(30);
    expect(ids[0]).toBe("r58");
    await expect(tasks.listTasks("garbage")).rejects.toThrow(/not a cursor/);
  });

  it("pages refused tasks (no run row) into tasks/list by their time, each once, across pages", async () => {
    const store = memoryStore();
    let now = 0;
    const tasks = new RunTasks({ store, host: new RunHost({ store, tools: [] }), now: () => now });
    const expected: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const runId = `r${String(i).padStart(3, "0")}`;
      await store.createRun({ runId, entry: "test", at: i });
      if (i % 2 === 0) {
        now = i;
        await tasks.createTask({ context: { runId } }, i, asked(runId));
        expected.push(runId);
      }
      if (i % 5 === 0) {
        // At the same time as a run, and in between.
        now = i + (i % 10 === 0 ? 0 : 0.5);
        const refused = `refused-${i}`;
        await tasks.createTask({ context: { runId: refused, error: "plan: no tool nope" } }, i, asked(refused));
        expected.push(refused);
      }
    }
    const listed = [];
    let pages = 0;
    for (let cursor: string | undefined, started = false; !started || cursor !== undefined; started = true, pages += 1) {
      const page = await tasks.listTasks(cursor);
      listed.push(...page.tasks);
      cursor = page.nextCursor;
    }
    // 100 runs and 20 refused tasks, 50 lines a page.
    expect(pages).toBe(3);
    expect(listed.map((task) => task.taskId).sort()).toEqual(expected.sort());
    const times = listed.map((task) => Date.parse(task.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
