import type * as McpServerModule from "@modelcontextprotocol/sdk/server/mcp.js";
import type * as McpHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type * as McpTasks from "@modelcontextprotocol/sdk/experimental/tasks";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../core/errors.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { checkRequests } from "./mcp-request-checks.js";
import { progressOf, stoppedRun, type McpCall } from "./mcp-run-follow.js";
import { guard, planloopTools, RunIdTakenError, startNewRun, toolError, type McpRunStart } from "./mcp-tool-table.js";
import { TaskDriver } from "./mcp-task-driver.js";
import { RunTasks } from "./mcp-tasks.js";
import type { RunChanges } from "./run-changes.js";
import { newRunId, type RunHost } from "../runs/run-host.js";
import type { Pipeline } from "../runs/pipelines.js";

type McpServer = McpServerModule.McpServer;

export interface McpServerOptions {
  store: CheckpointStore;
  host: RunHost;
  changes: RunChanges;
  /** How often a waiting call looks at the store for what other processes wrote (ms). Default 250. */
  pollMs?: number | undefined;
  /** Named pipelines, one tool each (see `Pipeline`). */
  pipelines?: readonly Pipeline[] | undefined;
  /**
   * A server that keeps its client (stdio): follows its tasks, telling their status, asking
   * the person through elicitations when a run waits for them, taking over a task's run left
   * running by a stopped process. Off for stateless HTTP, where a task is read from the store.
   */
  interactive?: boolean | undefined;
  /** Told what went wrong where nobody waits for an answer (stderr for `planloop mcp`). */
  log?: ((line: string) => void) | undefined;
  /** Who the runs started here came from, kept in their origin: the token's name over HTTP; default `mcp` (stdio). */
  client?: string | undefined;
  /** The server's secret: the 2026-07-28 line signs its `requestState` with a key made from it (else with a key of this process). */
  secret?: string | undefined;
}

/** What the 1.x SDK gives a tool's handler, as far as a tool reads it. */
type Extra = { signal: AbortSignal; _meta?: unknown; sendNotification(notification: never): Promise<void> };

function callOf(extra: Extra): McpCall {
  return { signal: extra.signal, meta: extra._meta, notify: (notification) => extra.sendNotification(notification as never) };
}

/**
 * planloop as an MCP server (docs/mcp.md): tools that start a plan or a task, follow it with a
 * progress notification per finished step, and return when it completes, fails or waits for a
 * person — or, asked for a task, answer with one at once, kept in the store (`RunTasks`);
 * `decide` answers what a run waits for, `cancel_run` ends it; `list_runs` and `get_run` read
 * the store. Runs run in this process under their leases, with its tools and model. Needs the
 * optional peer `@modelcontextprotocol/sdk`.
 */
export function planloopMcpServer(options: McpServerOptions): McpServer {
  const { McpServer } = loadOptionalPackage<typeof McpServerModule>({
    name: "@modelcontextprotocol/sdk",
    module: "@modelcontextprotocol/sdk/server/mcp.js",
    neededFor: "planloop mcp",
  });
  const { store, host, changes } = options;
  const taskModule = tasksModule();
  let driver: TaskDriver | undefined;
  const tasks = new RunTasks({
    store,
    host,
    // After a restart, a task is followed again from the first time a client asks about it.
    onLooked: (taskId, view) => {
      if (view.status === "running" || (view.status === "waiting" && view.pending.length > 0)) driver?.drive(taskId);
    },
  });
  const server = new McpServer(
    { name: "planloop", version: "1.0.0" },
    taskModule === undefined
      ? {}
      : {
          capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
          taskStore: tasks,
          ...(options.interactive ? { taskMessageQueue: new taskModule.InMemoryTaskMessageQueue() } : {}),
        },
  );
  if (taskModule !== undefined && options.interactive)
    driver = new TaskDriver({
      store,
      host,
      changes,
      tasks,
      server: server.server,
      pollMs: options.pollMs ?? 250,
      log: options.log,
      // Over stdio the client is `mcp`; over HTTP (a session) the token's name.
      decidedBy: options.client === undefined || options.client === "mcp" ? "mcp elicitation" : `${options.client} (elicitation)`,
    });
  const closing = server.server.onclose;
  server.server.onclose = () => {
    driver?.close();
    closing?.();
  };

  /** The tools that run as a task when asked to (the run tools, where the SDK has tasks). */
  const taskTools = new Set<string>();
  const tasksApi = (server as { experimental?: { tasks?: McpTasks.ExperimentalMcpServerTasks } }).experimental?.tasks;
  const context = { store, host, changes, client: options.client ?? "mcp", pipelines: options.pipelines };
  for (const tool of planloopTools(context)) {
    if (tool.run === undefined || taskModule === undefined || tasksApi === undefined) {
      server.registerTool(tool.name, tool.config, ((input: never, extra: Extra) => tool.call(input, callOf(extra))) as never);
      continue;
    }
    taskTools.add(tool.name);
    tasksApi.registerToolTask(
      tool.name,
      { ...tool.config, execution: { taskSupport: "optional" } } as never,
      {
        createTask: (input: never, extra: McpTasks.CreateTaskRequestHandlerExtra) => createRunTask(tool.run!, input, extra),
        getTask: (_input: never, extra: McpTasks.TaskRequestHandlerExtra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: (_input: never, extra: McpTasks.TaskRequestHandlerExtra) =>
          extra.taskStore.getTaskResult(extra.taskId) as Promise<CallToolResult>,
      } as never,
    );
  }

  /**
   * A run tool's call that asked for a task (`taskSupport: optional`): the task at once, the
   * run's id as its id; a call that did not is a plain task the SDK answers when the run stops.
   */
  async function createRunTask(run: McpRunStart, input: never, extra: McpTasks.CreateTaskRequestHandlerExtra) {
    let given: string | undefined;
    let error: string | undefined;
    try {
      given = run.runIdOf(input);
      await startNewRun(context, { ...run.startOf(input), runId: given });
    } catch (thrown) {
      error = errorMessage(thrown);
      // The task of a run that is not this call's (a taken id, or no valid one) is not that run's: an id of its own.
      if (thrown instanceof RunIdTakenError) given = undefined;
    }
    const runId = given ?? `refused-${newRunId()}`;
    const call = callOf(extra);
    const progress = progressOf(context, runId, call);
    const task = await extra.taskStore.createTask({
      ...(extra.taskRequestedTtl === undefined ? {} : { ttl: extra.taskRequestedTtl }),
      context: { runId, ...(error === undefined ? {} : { error }) },
    });
    if (tasks.isPlain(task.taskId)) {
      if (error !== undefined) {
        progress.stop();
        tasks.settlePlain(task.taskId, toolError(error));
      } else
        void guard(() => stoppedRun(context, runId, call, progress)).then((result) =>
          tasks.settlePlain(task.taskId, result as CallToolResult),
        );
    } else if (driver !== undefined && error === undefined) driver.drive(runId, progress.stop);
    else progress.stop();
    return { task };
  }
  checkRequests(server, (name) => taskTools.has(name));
  return server;
}

/** The SDK's task classes, where it has them (1.23 and later); without, run tools are plain calls. */
function tasksModule(): typeof McpTasks | undefined {
  try {
    return loadOptionalPackage<typeof McpTasks>({
      name: "@modelcontextprotocol/sdk",
      module: "@modelcontextprotocol/sdk/experimental/tasks",
      neededFor: "MCP tasks",
    });
  } catch {
    // Missing, or an SDK from before tasks (its package exports no such path).
    return undefined;
  }
}

/**
 * One 2025-era MCP request over Streamable HTTP, stateless: a server and a transport of its own,
 * so any number of clients (and any number of this server's processes) answer alike. A call that
 * runs a plan answers as server-sent events, its progress notifications first.
 */
export async function legacyMcpOverHttp(options: McpServerOptions, request: Request): Promise<Response> {
  const { WebStandardStreamableHTTPServerTransport } = loadOptionalPackage<typeof McpHttp>({
    name: "@modelcontextprotocol/sdk",
    module: "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
    neededFor: "the run server's /mcp",
  });
  const server = planloopMcpServer(options);
  // Without a session id generator: stateless (the SDK reads a missing one as such).
  const transport = new WebStandardStreamableHTTPServerTransport({});
  await server.connect(transport);
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  return transport.handleRequest(request);
}
