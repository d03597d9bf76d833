import type * as McpServerModule from "@modelcontextprotocol/sdk/server/mcp.js";
import type * as McpHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { errorMessage } from "../core/errors.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { strategyNames } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import type { RunView } from "../client/api-types.js";
import { BodyError } from "./api-requests.js";
import type { RunChanges } from "./run-changes.js";
import { newRunId, type RunHost } from "./run-host.js";
import { viewOfRun } from "./run-view.js";
import type { Pipeline } from "./pipelines.js";

type McpServer = McpServerModule.McpServer;

/** How long the answer to a run tool waits after its last progress notification (see `follow`). */
const answerGapMs = 25;

export interface McpServerOptions {
  store: CheckpointStore;
  host: RunHost;
  changes: RunChanges;
  /** How often a waiting call looks at the store for what other processes wrote (ms). Default 250. */
  pollMs?: number | undefined;
  /** Named pipelines, one tool each (see `Pipeline`). */
  pipelines?: readonly Pipeline[] | undefined;
}

/** What every run tool answers with, as `structuredContent`. */
const runOutcome = {
  runId: z.string(),
  status: z.string().describe("completed, waiting, failed, cancelled, …"),
  output: z.unknown().optional().describe("The run's answer, once it completed"),
  reason: z.string().optional(),
  pending: z
    .array(z.looseObject({ id: z.string(), kind: z.string() }))
    .optional()
    .describe("What the run waits for: decide it with decide"),
};

const decision = z.object({
  pendingId: z.string(),
  action: z.enum(["approve", "deny", "answer"]),
  reason: z.string().optional(),
  text: z.string().optional().describe("The answer, for action answer"),
});

/**
 * planloop as an MCP server (docs/mcp.md): tools that start a plan or a task, follow it with a
 * progress notification per finished step, and return when it completes, fails or waits for a
 * person; `decide` answers what it waits for, `cancel_run` ends it; `list_runs` and `get_run`
 * read the store. Runs run in this process under their leases, with its tools and model.
 * Needs the optional peer `@modelcontextprotocol/sdk`.
 */
export function planloopMcpServer(options: McpServerOptions): McpServer {
  const { McpServer } = loadOptionalPackage<typeof McpServerModule>({
    name: "@modelcontextprotocol/sdk",
    module: "@modelcontextprotocol/sdk/server/mcp.js",
    neededFor: "planloop mcp",
  });
  const server = new McpServer({ name: "planloop", version: "1.0.0" });
  const { store, host } = options;

  type Extra = { signal: AbortSignal; _meta?: unknown; sendNotification(notification: never): Promise<void> };
  /**
   * Waits until the run stops here, telling each finished step as a progress notification the
   * moment it ends (heard live, so every one goes out before the answer); then what it came to.
   */
  const follow = async (runId: string, extra: Extra, begin: () => Promise<unknown>) => {
    const token = (extra._meta as { progressToken?: string | number } | undefined)?.progressToken;
    let total = 0;
    let ended = 0;
    let sending: Promise<unknown> = Promise.resolve();
    let lastSent = 0;
    const stop = options.changes.listen(runId, (event) => {
      if (event.type === "plan-created") total += event.steps.length;
      if (event.type !== "step-end" || token === undefined) return;
      ended += 1;
      const params = {
        progressToken: token,
        progress: ended,
        ...(total > 0 ? { total } : {}),
        message: `step ${String(event.stepId)} ${event.status}`,
      };
      sending = sending
        .then(() => extra.sendNotification({ method: "notifications/progress", params } as never))
        .then(() => (lastSent = Date.now()))
        .catch(() => {});
    });
    try {
      // Listening before the run begins: no step's end is missed.
      await begin();
      const aborted = new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
      await Promise.race([host.settled(runId), aborted]);
    } finally {
      stop();
    }
    await sending;
    // A client may read a notification and the answer in one go and handle the answer first (the
    // TypeScript SDK's client does, dropping the notification): the answer waits a moment after
    // the last step's progress, so that it arrives on its own.
    const since = Date.now() - lastSent;
    if (since < answerGapMs) await new Promise((resolve) => setTimeout(resolve, answerGapMs - since));
    return outcome(await viewOfRun(store, runId), runId);
  };

  server.registerTool(
    "run_plan",
    {
      title: "Run a plan",
      description:
        "Run a fixed plan (planloop's JSON plan: steps with id, task, tool, args, depends_on) and wait until it completes, fails or waits for a person.",
      inputSchema: { plan: z.looseObject({ steps: z.array(z.unknown()) }), runId: z.string().optional() },
      outputSchema: runOutcome,
    },
    (input, extra) =>
      guard(async () => {
        const runId = input.runId ?? newRunId();
        return follow(runId, extra, () => host.start({ plan: input.plan, runId }));
      }),
  );

  server.registerTool(
    "ask",
    {
      title: "Ask planloop",
      description:
        "Give a task to a planloop strategy (plan-and-execute by default) and wait until it answers, fails or waits for a person.",
      inputSchema: {
        task: z.string().min(1),
        strategy: z.enum(strategyNames as [StrategyName, ...StrategyName[]]).optional(),
        runId: z.string().optional(),
      },
      outputSchema: runOutcome,
    },
    (input, extra) =>
      guard(async () => {
        const runId = input.runId ?? newRunId();
        return follow(runId, extra, () => host.start({ task: input.task, strategy: input.strategy ?? "plan-and-execute", runId }));
      }),
  );

  server.registerTool(
    "decide",
    {
      title: "Decide what a run waits for",
      description:
        "Approve, deny or answer what a waiting run waits for (ids from pending), all at once, and wait until the run stops again.",
      inputSchema: { runId: z.string(), decisions: z.array(decision).min(1) },
      outputSchema: runOutcome,
    },
    (input, extra) =>
      guard(async () => {
        const view = await viewOfRun(store, input.runId);
        if (view === undefined) throw new BodyError(`there is no run "${input.runId}"`, "runId");
        const waiting = new Set(view.pending.map((item) => item.id));
        const stale = input.decisions.filter((given) => !waiting.has(given.pendingId)).map((given) => given.pendingId);
        if (stale.length > 0)
          throw new BodyError(`run "${input.runId}" does not wait for ${stale.join(", ")}; nothing was decided`, "decisions");
        const decisions = input.decisions.map((given) =>
          given.action === "answer"
            ? { pendingId: given.pendingId, action: "answer" as const, text: given.text ?? "" }
            : given.action === "deny"
              ? { pendingId: given.pendingId, action: "deny" as const, reason: given.reason }
              : { pendingId: given.pendingId, action: "approve" as const },
        );
        return follow(input.runId, extra, () => host.continue(input.runId, decisions, { by: "mcp" }));
      }),
  );

  server.registerTool(
    "cancel_run",
    {
      title: "Cancel a run",
      description: "Cancel a run; a tool running in it is aborted.",
      inputSchema: { runId: z.string() },
      outputSchema: runOutcome,
    },
    (input) =>
      guard(async () => {
        const cancelled = await host.cancel(input.runId, "cancelled through MCP");
        if (cancelled === "missing") throw new BodyError(`there is no run "${input.runId}"`, "runId");
        return outcome(await viewOfRun(store, input.runId), input.runId);
      }),
  );

  server.registerTool(
    "get_run",
    {
      title: "Read a run",
      description: "A run's status, what it waits for, and its answer.",
      inputSchema: { runId: z.string() },
      outputSchema: runOutcome,
    },
    (input) => guard(async () => outcome(await viewOfRun(store, input.runId), input.runId)),
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
    server.registerTool(
      pipeline.name,
      { description: pipeline.description, inputSchema: pipeline.input, outputSchema: runOutcome },
      (input, extra) =>
        guard(async () => {
          const given = input as Record<string, unknown>;
          const body = pipeline.plan
            ? { plan: pipeline.plan(given) }
            : { task: pipeline.task!(given), strategy: pipeline.strategy ?? ("plan-and-execute" as const) };
          const runId = newRunId();
          return follow(runId, extra, () => host.start({ ...body, runId }));
        }),
    );
  }
  return server;
}

/** A run's standing as a tool result: a line of text, and the same as structured content. */
function outcome(view: RunView | undefined, runId: string) {
  if (view === undefined) throw new BodyError(`there is no run "${runId}"`, "runId");
  const result = view.result as { output?: unknown; reason?: string } | undefined;
  const structured = {
    runId,
    status: view.status,
    ...(result?.output === undefined ? {} : { output: result.output }),
    ...(result?.reason === undefined ? {} : { reason: result.reason }),
    ...(view.pending.length === 0 ? {} : { pending: view.pending }),
  };
  const waits = view.pending.map((item) => `${item.id} (${item.kind})`).join(", ");
  const text =
    view.status === "completed"
      ? `run ${runId} completed: ${typeof result?.output === "string" ? result.output : JSON.stringify(result?.output)}`
      : view.status === "waiting" && waits !== ""
        ? `run ${runId} waits for ${waits}: decide with the decide tool`
        : `run ${runId}: ${view.status}${result?.reason ? `: ${result.reason}` : ""}`;
  return { content: [{ type: "text" as const, text }], structuredContent: structured };
}

/** A refusal or failure as a tool error the client's model reads, never a thrown protocol error. */
async function guard<T>(work: () => Promise<T>): Promise<T | { content: Array<{ type: "text"; text: string }>; isError: true }> {
  try {
    return await work();
  } catch (error) {
    return { content: [{ type: "text", text: errorMessage(error) }], isError: true };
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
