import type { ModernTasks } from "./mcp-tasks-extension.js";
import { declaresTasks, tasksExtension } from "./mcp-tasks-extension.js";
import type { RunChanges } from "./run-changes.js";

/** A `subscriptions/listen` request as it arrives: its id, and the filter in its params. */
export interface ListenRequest {
  id: string | number;
  params: { notifications: { taskIds: string[] }; _meta?: Record<string, unknown> };
}

export interface TaskNotificationOptions {
  tasks: Pick<ModernTasks, "detailed">;
  changes: RunChanges;
  /** How often a task is read again where the store has no change feed (ms). */
  pollMs: number;
  /** Sends one JSON-RPC message on the subscription's stream. */
  send(message: Record<string, unknown>): void;
  /** Aborts when the client closes the subscription (its stream, or `notifications/cancelled`). */
  signal: AbortSignal;
}

const subscriptionIdKey = "io.modelcontextprotocol/subscriptionId";
/** Ids a subscription follows at most: each is a loop reading the store. */
const maxTaskIds = 100;
/** Ids a subscription looks up at most (the first named): each is a read of the store, and a body of 1 MB names 100,000. */
const maxIdsRead = 1_000;
const terminal = new Set(["completed", "failed", "cancelled"]);

/**
 * The task ids a 2026-07-28 `subscriptions/listen` asks to hear about (the Tasks extension's
 * `notifications.taskIds`), or `undefined` when the message is something else: then the SDK
 * answers it as before.
 */
export function taskListenRequest(message: unknown): ListenRequest | undefined {
  const request = message as { method?: unknown; id?: unknown; params?: { notifications?: { taskIds?: unknown } } } | null;
  if (request === null || typeof request !== "object" || request.method !== "subscriptions/listen") return undefined;
  if (typeof request.id !== "string" && typeof request.id !== "number") return undefined;
  const taskIds = request.params?.notifications?.taskIds;
  if (!Array.isArray(taskIds) || !taskIds.every((taskId) => typeof taskId === "string")) return undefined;
  return request as ListenRequest;
}

/** The spec's answer to a listen for task ids from a client that does not declare the extension. */
export function undeclaredListen(request: ListenRequest): Record<string, unknown> | undefined {
  if (declaresTasks(request.params._meta)) return undefined;
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: {
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } },
    },
  };
}

/**
 * Serves one task subscription (the Tasks extension's `notifications/tasks`): acknowledges the
 * ids that name a task, sends each task as `tasks/get` would answer it now (so a change between
 * the client's last poll and its listen is not missed), then again each time its status changes
 * or it asks for another wave of input. Ends, with the listen's result (the spec's graceful
 * close), once every task is terminal; at once when the client goes.
 */
export async function serveTaskNotifications(request: ListenRequest, options: TaskNotificationOptions): Promise<void> {
  const stamp = { [subscriptionIdKey]: request.id };
  const accepted: string[] = [];
  for (const taskId of [...new Set(request.params.notifications.taskIds)].slice(0, maxIdsRead)) {
    if (accepted.length >= maxTaskIds || options.signal.aborted) break;
    if ((await stateOf(options, taskId)) !== undefined) accepted.push(taskId);
  }
  options.send({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: { taskIds: accepted }, _meta: stamp },
  });
  await Promise.all(accepted.map((taskId) => followTask(taskId, options, stamp)));
  if (!options.signal.aborted) options.send({ jsonrpc: "2.0", id: request.id, result: { resultType: "complete", _meta: stamp } });
}

/** Sends the task's state whenever what it says changes, until it is terminal, gone, or the client leaves. */
async function followTask(taskId: string, options: TaskNotificationOptions, stamp: Record<string, unknown>): Promise<void> {
  const { changes, pollMs, signal } = options;
  const stop = new AbortController();
  const stopAll = () => stop.abort();
  signal.addEventListener("abort", stopAll, { once: true });
  // Listening before each read: a change between the read and the wait still wakes it.
  const nextChange = () => changes.next(taskId, changes.fed ? undefined : pollMs, stop.signal);
  let told: string | undefined;
  try {
    let changed = nextChange();
    while (!signal.aborted) {
      const state = await stateOf(options, taskId);
      if (state === undefined) return;
      const said = whatItSays(state);
      if (said !== told)
        options.send({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...state, _meta: { ...state._meta, ...stamp } } });
      told = said;
      if (terminal.has(String(state.status))) return;
      await changed;
      changed = nextChange();
    }
  } finally {
    signal.removeEventListener("abort", stopAll);
    stop.abort();
  }
}

async function stateOf(
  options: TaskNotificationOptions,
  taskId: string,
): Promise<(Record<string, unknown> & { _meta?: Record<string, unknown> }) | undefined> {
  try {
    return (await options.tasks.detailed(taskId)) as Record<string, unknown>;
  } catch {
    // No such task, or past its ttl.
    return undefined;
  }
}

/**
 * The task subscriptions of one stdio connection: a listen for task ids is answered here (the
 * SDK's stdio listen knows only its own kinds of change), `notifications/cancelled` naming one
 * ends it, and so does the connection's close.
 */
export class TaskSubscriptions {
  private readonly open = new Map<string | number, AbortController>();

  constructor(
    private readonly options: Omit<TaskNotificationOptions, "signal" | "send"> & { send(message: Record<string, unknown>): Promise<void> },
  ) {}

  /** Whether the message was one of these subscriptions' to answer (then the server never sees it). */
  intercept(message: unknown): boolean {
    const listen = taskListenRequest(message);
    if (listen !== undefined) {
      this.serve(listen);
      return true;
    }
    const cancelled = message as { method?: unknown; params?: { requestId?: unknown } };
    const subscription = cancelled.method === "notifications/cancelled" ? this.open.get(cancelled.params?.requestId as string) : undefined;
    subscription?.abort();
    return subscription !== undefined;
  }

  close(): void {
    for (const subscription of this.open.values()) subscription.abort();
  }

  private serve(listen: ListenRequest): void {
    const send = (message: Record<string, unknown>) => void this.options.send(message).catch(() => {});
    const refusal = undeclaredListen(listen);
    if (refusal !== undefined) return send(refusal);
    if (this.open.has(listen.id))
      return send({ jsonrpc: "2.0", id: listen.id, error: { code: -32600, message: "a subscription with this id is open" } });
    const gone = new AbortController();
    this.open.set(listen.id, gone);
    void serveTaskNotifications(listen, { ...this.options, send, signal: gone.signal })
      .catch(() => {})
      .finally(() => this.open.delete(listen.id));
  }
}

/** A task's status and the input it asks for: a step ending inside a working run is no news. */
function whatItSays(state: Record<string, unknown>): string {
  const requests = state.inputRequests as Record<string, unknown> | undefined;
  return JSON.stringify([state.status, Object.keys(requests ?? {})]);
}
