import type * as McpServerModule from "@modelcontextprotocol/sdk/server/mcp.js";
import type * as McpHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type * as McpTasks from "@modelcontextprotocol/sdk/experimental/tasks";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { errorMessage } from "../core/errors.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { strategyNames } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import { BodyError, type StartRun } from "./api-requests.js";
import { runOutcome, runOutcomeShape } from "./mcp-outcome.js";
import { progressTokenOf, stepProgress } from "./mcp-progress.js";
import { TaskDriver } from "./mcp-task-driver.js";
import { groundingChoices } from "../grounding/grounding-gate.js";
import { RunTasks } from "./mcp-tasks.js";
import type { RunChanges } from "./run-changes.js";
import { newRunId, type RunHost } from "../runs/run-host.js";
import { viewOfRun } from "./run-view.js";
import type { Pipeline } from "../runs/pipelines.js";
import { checkNewRunId, newRunIdSchema, runReferenceSchema } from "../runs/run-id.js";

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
}

const decision = z.object({
  pendingId: z.string(),
  action: z.enum(["approve", "deny", "answer"]),
  reason: z.string().optional(),
  text: z.string().optional().describe("The answer, for action answer"),
});

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
    driver = new TaskDriver({ store, host, changes, tasks, server: server.server, pollMs: options.pollMs ?? 250, log: options.log });
  const closing = server.server.onclose;
  server.server.onclose = () => {
    driver?.close();
    closing?.();
  };

  type Extra = { signal: AbortSignal; _meta?: unknown; sendNotification(notification: never): Promise<void> };
  const progressOf = (runId: string, extra: Extra) =>
    stepProgress(changes, runId, progressTokenOf(extra._meta), (params) =>
      extra.sendNotification({ method: "notifications/progress", params } as never),
    );
  /** Waits until the run stops running here (or the call is given up), then what it came to. */
  const stopped = async (runId: string, extra: Extra, progress: ReturnType<typeof progressOf>) => {
    try {
      const aborted = new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
      await Promise.race([host.settled(runId), aborted]);
    } finally {
      progress.stop();
    }
    await progress.drained();
    return runOutcome(await viewOfRun(store, runId), runId);
  };
  /** Begins (listening first: no step's end is missed), then waits until the run stops here. */
  const follow = async (runId: string, extra: Extra, begin: () => Promise<unknown>) => {
    const progress = progressOf(runId, extra);
    try {
      await begin();
    } catch (error) {
      progress.stop();
      throw error;
    }
    return stopped(runId, extra, progress);
  };

  /**
   * A tool that starts a run. Where the SDK has tasks, a call may ask for one (`taskSupport:
   * optional`): it gets the task at once, the run's id as its id; a call that does not is
   * answered when the run completes, fails or waits, with a progress notification per step.
   */
  const runTool = <Shape extends z.ZodRawShape>(
    name: string,
    config: { title?: string; description: string; inputSchema: Shape | z.ZodObject<Shape> },
    startOf: (input: z.infer<z.ZodObject<Shape>>) => StartRun,
  ) => {
    // Every run tool's id, a pipeline's too, by the library's one rule: never an inner run's, a schedule's or "".
    const runIdOf = (input: unknown) => {
      const given = (input as { runId?: unknown }).runId;
      return given === undefined ? newRunId() : checkNewRunId(given);
    };
    const client = { client: options.client ?? "mcp" };
    // A run tool starts a new run: an id that is taken (another client's run, or this one's earlier) is refused, never its old answer.
    const startNew = async (request: StartRun & { runId: string }) => {
      if ((await host.start(request, client)).created) return;
      throw new BodyError(
        `run "${request.runId}" exists already: a run tool starts a new run; give another runId, or read that one with get_run`,
        "runId",
      );
    };
    const tasksApi = (server as { experimental?: { tasks?: McpTasks.ExperimentalMcpServerTasks } }).experimental?.tasks;
    if (taskModule === undefined || tasksApi === undefined)
      return server.registerTool(name, { ...config, outputSchema: runOutcomeShape }, ((input: never, extra: Extra) =>
        guard(() => {
          const runId = runIdOf(input);
          return follow(runId, extra, () => startNew({ ...startOf(input), runId }));
        })) as never);
    return tasksApi.registerToolTask(
      name,
      { ...config, outputSchema: runOutcomeShape, execution: { taskSupport: "optional" } } as never,
      {
        createTask: async (input: never, extra: McpTasks.CreateTaskRequestHandlerExtra) => {
          const runId = runIdOf(input);
          const progress = progressOf(runId, extra);
          let error: string | undefined;
          try {
            await startNew({ ...startOf(input), runId });
          } catch (thrown) {
            error = errorMessage(thrown);
          }
          const task = await extra.taskStore.createTask({
            ...(extra.taskRequestedTtl === undefined ? {} : { ttl: extra.taskRequestedTtl }),
            context: { runId, ...(error === undefined ? {} : { error }) },
          });
          if (tasks.isPlain(task.taskId)) {
            if (error !== undefined) {
              progress.stop();
              tasks.settlePlain(task.taskId, toolError(error));
            } else
              void guard(() => stopped(runId, extra, progress)).then((result) => tasks.settlePlain(task.taskId, result as CallToolResult));
          } else if (driver !== undefined && error === undefined) driver.drive(runId, progress.stop);
          else progress.stop();
          return { task };
        },
        getTask: (_input: never, extra: McpTasks.TaskRequestHandlerExtra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: (_input: never, extra: McpTasks.TaskRequestHandlerExtra) =>
          extra.taskStore.getTaskResult(extra.taskId) as Promise<CallToolResult>,
      } as never,
    );
  };

  runTool(
    "run_plan",
    {
      title: "Run a plan",
      description:
        "Run a fixed plan (planloop's JSON plan: steps with id, task, tool, args, depends_on) and wait until it completes, fails or waits for a person.",
      inputSchema: { plan: z.looseObject({ steps: z.array(z.unknown()) }), runId: newRunIdSchema.optional() },
    },
    (input) => ({ plan: input.plan }),
  );

  runTool(
    "ask",
    {
      title: "Ask planloop",
      description:
        "Give a task to a planloop strategy (plan-and-execute by default) and wait until it answers, fails or waits for a person.",
      inputSchema: {
        task: z.string().min(1),
        strategy: z.enum(strategyNames as [StrategyName, ...StrategyName[]]).optional(),
        runId: newRunIdSchema.optional(),
        grounding: z
          .enum(groundingChoices)
          .optional()
          .describe("How the answer's figures are checked against the steps: flag (default), repair, strict, or off"),
      },
    },
    (input) => ({
      task: input.task,
      strategy: input.strategy ?? "plan-and-execute",
      ...(input.grounding === undefined ? {} : { grounding: input.grounding }),
    }),
  );

  server.registerTool(
    "decide",
    {
      title: "Decide what a run waits for",
      description:
        "Approve, deny or answer what a waiting run waits for (ids from pending), all at once, and wait until the run stops again.",
      inputSchema: { runId: runReferenceSchema, decisions: z.array(decision).min(1) },
      outputSchema: runOutcomeShape,
    },
    (input, extra) =>
      guard(async () => {
        const decisions = input.decisions.map((given) =>
          given.action === "answer"
            ? { pendingId: given.pendingId, action: "answer" as const, text: given.text ?? "" }
            : given.action === "deny"
              ? { pendingId: given.pendingId, action: "deny" as const, reason: given.reason }
              : { pendingId: given.pendingId, action: "approve" as const },
        );
        // Checked whole against what the run waits for now, and again under its lease; a refusal is the tool's error, naming each bad item.
        return follow(input.runId, extra, () => host.decide(input.runId, { decisions, by: options.client ?? "mcp" }));
      }),
  );

  server.registerTool(
    "cancel_run",
    {
      title: "Cancel a run",
      description: "Cancel a run; a tool running in it is aborted.",
      inputSchema: { runId: runReferenceSchema },
      outputSchema: runOutcomeShape,
    },
    (input) =>
      guard(async () => {
        const cancelled = await host.cancel(input.runId, "cancelled through MCP");
        if (cancelled === "missing") throw new BodyError(`there is no run "${input.runId}"`, "runId");
        return runOutcome(await viewOfRun(store, input.runId), input.runId);
      }),
  );

  server.registerTool(
    "get_run",
    {
      title: "Read a run",
      description: "A run's status, what it waits for, and its answer.",
      inputSchema: { runId: runReferenceSchema },
      outputSchema: runOutcomeShape,
    },
    (input) => guard(async () => runOutcome(await viewOfRun(store, input.runId), input.runId)),
  );

  server.registerTool(
    "list_runs",
    {
      title: "List runs",
      description: "The runs in the store, newest first.",
      inputSchema: { limit: z.number().int().min(1).max(200).optional(), status: z.string().optional() },
      outputSchema: { runs: z.array(z.object({ runId: z.string(), entry: z.string(), status: z.string(), createdAt: z.number() })) },
    },
    (input) =>
      guard(async () => {
        const rows = await store.listRuns({ topLevel: true, limit: input.limit ?? 20, status: input.status });
        const runs = rows.map((row) => ({
          runId: row.runId,
          entry: row.entry,
          status: row.outcome?.status ?? "running",
          createdAt: row.createdAt,
        }));
        const text = runs.length === 0 ? "no runs" : runs.map((run) => `${run.runId}: ${run.status} (${run.entry})`).join("\n");
        return { content: [{ type: "text" as const, text }], structuredContent: { runs } };
      }),
  );
  for (const pipeline of options.pipelines ?? []) {
    runTool(pipeline.name, { description: pipeline.description, inputSchema: pipeline.input as z.ZodObject<z.ZodRawShape> }, (input) =>
      pipeline.plan
        ? { plan: pipeline.plan(input) }
        : { task: pipeline.task!(input), strategy: pipeline.strategy ?? ("plan-and-execute" as const) },
    );
  }
  return server;
}

/** A refusal or failure as a tool error the client's model reads, never a thrown protocol error. */
async function guard<T>(work: () => Promise<T>): Promise<T | ReturnType<typeof toolError>> {
  try {
    return await work();
  } catch (error) {
    return toolError(errorMessage(error));
  }
}

function toolError(text: string): { content: Array<{ type: "text"; text: string }>; isError: true } {
  return { content: [{ type: "text", text }], isError: true };
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
 * One MCP request over Streamable HTTP, stateless: a server and a transport of its own, so any
 * number of clients (and any number of this server's processes) answer alike. A call that runs
 * a plan answers as server-sent events, its progress notifications first.
 */
export async function mcpOverHttp(options: McpServerOptions, request: Request): Promise<Response> {
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
