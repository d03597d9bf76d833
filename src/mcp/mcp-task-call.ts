import { z } from "zod";
import { isRecord } from "../core/is-record.js";

/** A task's result is read as any object here (the SDK needs a schema); `resultOf` reads it. */
const anyResult = z.looseObject({});

/** A task as a server tells it (`tasks/get`; the MCP 2025-11-25 spec). */
export interface McpTaskInfo {
  taskId: string;
  status: string;
  statusMessage?: string | undefined;
  pollInterval?: number | undefined;
}

/**
 * What calling a task-only tool needs of a client: `client.experimental.tasks` of
 * `@modelcontextprotocol/sdk` (1.23 and later) has it.
 */
export interface McpTaskClient {
  callToolStream(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number; task?: { ttl?: number } },
  ): AsyncGenerator<{ type: string; task?: McpTaskInfo; error?: unknown }, void, void>;
  getTask(taskId: string, options?: { signal?: AbortSignal; timeout?: number }): Promise<McpTaskInfo>;
  getTaskResult(taskId: string, resultSchema: z.ZodType, options?: { signal?: AbortSignal; timeout?: number }): Promise<unknown>;
  cancelTask(taskId: string, options?: { timeout?: number }): Promise<unknown>;
}

export interface TaskCallOptions {
  signal: AbortSignal;
  /** Each request's timeout (ms); the call as a whole is bounded by the tool's own timeout, through `signal`. */
  timeout?: number | undefined;
}

/** How long a task may be kept after it ends (the client's ask; the server may give less). */
const taskTtlMs = 3_600_000;
/** The bounds on the wait between two looks at a task, whatever the server asks for (ms). */
const shortestPollMs = 10;
const longestPollMs = 5_000;

/**
 * Calls a tool that runs only as an MCP task: creates the task, follows it (at the server's
 * `pollInterval`) until it ends, and returns its result — a failed task's too, which carries the
 * tool's error (`isError`). A task that waits for input is asked for its result, which is where
 * the server sends its requests (an elicitation) and answers once it ends. When `signal` aborts
 * (the run is cancelled, the tool's timeout passes), the task is cancelled on the server.
 */
export async function callAsTask(
  tasks: McpTaskClient,
  params: { name: string; arguments: Record<string, unknown> },
  options: TaskCallOptions,
): Promise<Record<string, unknown>> {
  const { signal } = options;
  const each = { signal, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) };
  // Created without the signal: a creation cut off midway would leave a task no one could cancel.
  const taskId = await createTask(tasks, params, options.timeout === undefined ? {} : { timeout: options.timeout });
  const cancel = () => void tasks.cancelTask(taskId, { timeout: 10_000 }).catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    if (signal.aborted) cancel();
    for (;;) {
      signal.throwIfAborted();
      const task = await tasks.getTask(taskId, each);
      if (task.status === "cancelled")
        throw new Error(`the MCP server cancelled task ${taskId}${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
      if (["completed", "failed", "input_required"].includes(task.status))
        return resultOf(await tasks.getTaskResult(taskId, anyResult, each), task);
      await pause(Math.min(Math.max(task.pollInterval ?? 1_000, shortestPollMs), longestPollMs), signal);
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/** Sends the task-augmented call and reads the task it created (the SDK's stream, left after its first message). */
async function createTask(
  tasks: McpTaskClient,
  params: { name: string; arguments: Record<string, unknown> },
  each: { timeout?: number },
): Promise<string> {
  const stream = tasks.callToolStream(params, undefined, { ...each, task: { ttl: taskTtlMs } });
  try {
    const first = await stream.next();
    const message = first.done ? undefined : first.value;
    if (message?.type === "taskCreated" && message.task !== undefined) return message.task.taskId;
    const why = message?.error instanceof Error ? message.error.message : "it answered without a task";
    throw new Error(`the MCP server did not create a task for ${params.name}: ${why}`);
  } finally {
    // Only the task is wanted: following it is done here, where a failed task's result is read too.
    await stream.return();
  }
}

/** A task's result as a call's; a failed task whose result says nothing is an error saying why. */
function resultOf(result: unknown, task: McpTaskInfo): Record<string, unknown> {
  if (isRecord(result) && (Array.isArray(result.content) || result.structuredContent !== undefined))
    return task.status === "failed" ? { ...result, isError: true } : result;
  if (task.status === "failed")
    return { content: [{ type: "text", text: task.statusMessage ?? `task ${task.taskId} failed` }], isError: true };
  throw new Error(`the MCP server's task ${task.taskId} ended ${task.status} with no tool result`);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (signal.removeEventListener("abort", stop), resolve()), ms);
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener("abort", stop, { once: true });
  });
}
