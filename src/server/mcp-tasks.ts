import { randomBytes } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { CallToolResult, Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import type { RunView } from "../client/api-types.js";
import type { RunHost } from "../runs/run-host.js";
import { viewOfRun } from "./run-view.js";
import { isFailedRun, runAnswer } from "./mcp-outcome.js";
import { newestFirst, noteRefusedTask, refusedTasks } from "./mcp-refused-tasks.js";

/** How long a task is kept when the client names no ttl, and the most it may name (ms). */
export const defaultTaskTtlMs = 7 * 24 * 3600_000;
const longestTaskTtlMs = 30 * 24 * 3600_000;
/** How often a client is asked to look at a task (ms). */
const taskPollMs = 1000;
/** How often the SDK looks at a plain call's task (a call without task support, answered when it stops). */
const plainPollMs = 20;

/** What is kept for a task in the store: the run it follows. Task id and run id are the same. */
interface TaskRecord {
  createdAt: number;
  ttl: number | null;
  sessionId?: string | undefined;
  /** Why the run could not start: the task failed at once. */
  error?: string | undefined;
}

/** A call made without task support: followed in this process, answered when the run stops. */
interface PlainTask {
  task: Task;
  result?: CallToolResult;
}

export const taskKey = (taskId: string) => `planloop:mcp:task:${taskId}`;
/** The key in the item of a waiting task's `_meta` that holds what its run waits for. */
export const pendingMetaKey = "planloop/pending";

export interface RunTasksOptions {
  store: CheckpointStore;
  host: RunHost;
  now?: (() => number) | undefined;
  /** Told when a task is read whose run waits for a person or was left running by a process that stopped. */
  onLooked?: ((taskId: string, view: RunView) => void) | undefined;
}

/**
 * MCP tasks (the 2025-11-25 spec) backed by planloop's store: a task is a run started by a run
 * tool, and the task's id is the run's. Its status is read from the run each time (`working`,
 * `input_required` while it waits for a person, `completed`, `failed`, `cancelled`), so a task
 * outlives the server and the client: after a restart `tasks/get` and `tasks/result` answer
 * from the store. `tasks/cancel` cancels the run, aborting its running tools.
 *
 * A call that did not ask for a task (`taskSupport: optional`) is followed in this process as a
 * plain task the SDK polls, answered when the run completes, fails or waits; it is not kept.
 */
export class RunTasks implements TaskStore {
  private readonly plain = new Map<string, PlainTask>();
  private readonly now: () => number;

  constructor(private readonly options: RunTasksOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether the task is a plain call's (answered by `settlePlain`), not one a client asked for. */
  isPlain(taskId: string): boolean {
    return this.plain.has(taskId);
  }

  /** Answers a plain call: its task reads as completed (or failed), and the SDK returns the result. */
  settlePlain(taskId: string, result: CallToolResult): void {
    const plain = this.plain.get(taskId);
    if (plain === undefined) return;
    plain.result = result;
    plain.task = { ...plain.task, status: result.isError ? "failed" : "completed", lastUpdatedAt: this.iso() };
  }

  async createTask(params: CreateTaskOptions, _requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const context = (params.context ?? {}) as { runId?: string; error?: string };
    const asked = (request.params as { task?: unknown } | undefined)?.task !== undefined;
    const createdAt = this.now();
    if (!asked) {
      const taskId = `call-${randomBytes(6).toString("hex")}`;
      const task: Task = {
        taskId,
        status: "working",
        ttl: null,
        createdAt: this.iso(createdAt),
        lastUpdatedAt: this.iso(createdAt),
        pollInterval: plainPollMs,
      };
      this.plain.set(taskId, { task });
      return task;
    }
    if (context.runId === undefined) throw new Error("a planloop task needs its run's id (context.runId)");
    const ttl = params.ttl === null ? null : Math.min(Math.max(params.ttl ?? defaultTaskTtlMs, 1000), longestTaskTtlMs);
    const record: TaskRecord = {
      createdAt,
      ttl,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(context.error === undefined ? {} : { error: context.error }),
    };
    // A run is followed as one task: a second task asked for under its id (another client's, or a
    // retry) does not overwrite the first's record, its ttl or its outcome.
    const runId = context.runId;
    await updateValue(this.options.store, taskKey(runId), (current) => {
      if (current !== undefined && current !== null) throw new TaskTakenError(runId);
      return record;
    });
    if (context.error === undefined) return (await this.getTask(runId, sessionId))!;
    await noteRefusedTask(this.options.store, { taskId: runId, createdAt });
    // A task begins working (the spec's rule), even one that fails at once: tasks/get says why.
    const at = this.iso(createdAt);
    return { taskId: runId, status: "working", ttl, createdAt: at, lastUpdatedAt: at, pollInterval: taskPollMs };
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const plain = this.plain.get(taskId);
    if (plain !== undefined) return plain.task;
    const record = await this.record(taskId, sessionId);
    if (record === undefined) return null;
    const base = { taskId, ttl: record.ttl, createdAt: this.iso(record.createdAt), pollInterval: taskPollMs };
    if (record.error !== undefined)
      return { ...base, status: "failed", lastUpdatedAt: this.iso(record.createdAt), statusMessage: record.error };
    const view = await viewOfRun(this.options.store, taskId);
    if (view === undefined) return { ...base, status: "working", lastUpdatedAt: this.iso(record.createdAt), statusMessage: "starting" };
    this.options.onLooked?.(taskId, view);
    return { ...base, lastUpdatedAt: this.iso(view.updatedAt), ...statusOf(view) };
  }

  async storeTaskResult(taskId: string, _status: "completed" | "failed", result: Result): Promise<void> {
    // A task's run keeps its own result; only a plain call's is kept here.
    this.settlePlain(taskId, result as CallToolResult);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const plain = this.plain.get(taskId);
    if (plain !== undefined) {
      if (plain.result === undefined) throw new Error(`call ${taskId} has not answered yet`);
      this.plain.delete(taskId);
      return plain.result;
    }
    const record = await this.record(taskId, sessionId);
    if (record === undefined) throw new Error(`there is no task "${taskId}"`);
    if (record.error !== undefined) return { content: [{ type: "text", text: record.error }], isError: true };
    return runAnswer(await viewOfRun(this.options.store, taskId), taskId);
  }

  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string): Promise<void> {
    // A task's status is its run's; the one change a client makes is to cancel it.
    if (status !== "cancelled" || this.plain.has(taskId)) return;
    await this.options.host.cancel(taskId, statusMessage ?? "cancelled through MCP (tasks/cancel)");
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const before = cursor === undefined ? undefined : decodeCursor(cursor);
    const page = 50;
    const rows = await this.options.store.listRuns({ topLevel: true, limit: page, ...(before ? { before } : {}) });
    // Runs that could not start have no row: their tasks are merged in by the same order (once,
    // should a run have been started under a refused task's id since).
    const listed = new Set(rows.map((row) => row.runId));
    const refused = (await refusedTasks(this.options.store, before)).filter((task) => !listed.has(task.taskId));
    const lines = [...rows.map((row) => ({ taskId: row.runId, createdAt: row.createdAt })), ...refused].sort(newestFirst).slice(0, page);
    const tasks: Task[] = [];
    for (const line of lines) {
      const task = await this.getTask(line.taskId, sessionId);
      if (task !== null) tasks.push(task);
    }
    const last = lines.at(-1);
    return lines.length === page && last
      ? { tasks, nextCursor: encodeCursor({ createdAt: last.createdAt, runId: last.taskId }) }
      : { tasks };
  }

  /** The task's record, if it is there, this session's, and within its ttl (a lapsed one is let go). */
  private async record(taskId: string, sessionId: string | undefined): Promise<TaskRecord | undefined> {
    const record = (await this.options.store.getValue(taskKey(taskId))) as TaskRecord | null | undefined;
    if (record === undefined || record === null) return undefined;
    if (record.sessionId !== undefined && sessionId !== undefined && record.sessionId !== sessionId) return undefined;
    if (record.ttl !== null && this.now() > record.createdAt + record.ttl) {
      await this.options.store.setValue(taskKey(taskId), null);
      return undefined;
    }
    return record;
  }

  private iso(at: number = this.now()): string {
    return new Date(at).toISOString();
  }
}

/** A run's status as a task's: what it is, and a line saying why. */
function statusOf(view: RunView): Pick<Task, "status" | "statusMessage"> & { _meta?: Record<string, unknown> } {
  const reason = (view.result as { reason?: string } | undefined)?.reason;
  if (view.status === "completed") return { status: "completed" };
  if (view.status === "cancelled") return { status: "cancelled", ...(reason ? { statusMessage: reason } : {}) };
  if (view.status === "waiting" && view.pending.length > 0)
    return {
      status: "input_required",
      statusMessage: `waits for ${view.pending.map((item) => `${item.id} (${item.kind})`).join(", ")}: answer the elicitation, or decide with the decide tool`,
      _meta: { [pendingMetaKey]: view.pending },
    };
  if (view.status === "waiting") return { status: "working", statusMessage: reason ?? "waits for a time or an event" };
  if (isFailedRun(view.status)) return { status: "failed", statusMessage: reason ?? view.status };
  return { status: "working" };
}

function encodeCursor(at: { createdAt: number; runId: string }): string {
  return Buffer.from(JSON.stringify(at)).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: number; runId: string } {
  try {
    const at = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { createdAt?: unknown; runId?: unknown };
    if (typeof at.createdAt === "number" && typeof at.runId === "string") return { createdAt: at.createdAt, runId: at.runId };
  } catch {
    // Falls through to the error below.
  }
  throw new Error(`not a cursor tasks/list gave: ${cursor}`);
}

/** A task asked for under the id of a run that is followed as a task already. */
class TaskTakenError extends Error {
  constructor(runId: string) {
    super(`run "${runId}" is followed as a task already: read it with tasks/get "${runId}", or start a run under another runId`);
  }
}
