import { createHash } from "node:crypto";
import type * as McpServerV2 from "@modelcontextprotocol/server";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PendingItem } from "../client/api-types.js";
import { errorMessage } from "../core/errors.js";
import { decisionForm, decisionsOf, type FormAnswer } from "./mcp-elicit.js";
import { pendingMetaKey, RunTasks } from "./mcp-tasks.js";
import { inputObjectOf, startNewRun, toolError, type McpTool, type McpToolContext } from "./mcp-tool-table.js";
import { viewOfRun } from "./run-view.js";

/** The Tasks extension's identifier (SEP-2663), in capabilities and per-request client capabilities. */
export const tasksExtension = "io.modelcontextprotocol/tasks";

const invalidParams = -32602;
const missingClientCapability = -32021;

type Handler = (request: { params?: Record<string, unknown> }, context: McpServerV2.ServerContext) => Promise<unknown>;

/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) over the same task store as
 * the 2025-11-25 tasks (`RunTasks`): a run tool called by a client that declares the extension on
 * its request answers at once with a task handle (`resultType: "task"`) whose id is the run's;
 * `tasks/get` reads the run each time (working, input_required with one form per wave in
 * `inputRequests`, completed with the tool's answer inlined — a failed run included, as an
 * `isError` result — or cancelled); `tasks/update` decides the wave with the form's answer through
 * `decideRun`; `tasks/cancel` cancels the run. A task made here is the same record a 2025-11-25
 * client reads with its own `tasks/get`.
 */
export class ModernTasks {
  private readonly tasks: RunTasks;

  constructor(
    private readonly sdk: typeof McpServerV2,
    private readonly context: McpToolContext,
  ) {
    this.tasks = new RunTasks({ store: context.store, host: context.host });
  }

  /** Puts the extension on the server: run tools may answer with a task; the three task methods. */
  install(server: McpServerV2.McpServer, tools: readonly McpTool[]): void {
    const runTools = new Map(tools.filter((tool) => tool.run !== undefined).map((tool) => [tool.name, tool]));
    // The SDK keeps its handlers in a private map (as the 1.x line's checks do): a task handle is
    // answered ahead of McpServer's own tools/call, which would read it as a tool's result.
    const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
    const toolsCall = handlers.get("tools/call");
    if (toolsCall === undefined) throw new Error("the MCP SDK has no tools/call handler to answer tasks ahead of");
    handlers.set("tools/call", async (request, serverContext) => {
      const tool = runTools.get(String(request.params?.name));
      const input = tool === undefined ? undefined : inputObjectOf(tool).safeParse(request.params?.arguments ?? {});
      if (tool === undefined || !input?.success || !this.declares(serverContext)) return toolsCall(request, serverContext);
      return this.create(tool, input.data);
    });
    const byId = { params: z.looseObject({ taskId: z.string() }) };
    server.server.setRequestHandler("tasks/get", byId, async (params, serverContext) => {
      this.requireDeclared(serverContext);
      return this.detailed(params.taskId);
    });
    server.server.setRequestHandler("tasks/update", byId, async (params, serverContext) => {
      this.requireDeclared(serverContext);
      // The SDK lifts `inputResponses` out of the params it validates (as for a retried request): read from there.
      await this.update(params.taskId, serverContext.mcpReq.inputResponses ?? {});
      return {};
    });
    server.server.setRequestHandler("tasks/cancel", byId, async (params, serverContext) => {
      this.requireDeclared(serverContext);
      await this.found(params.taskId);
      await this.context.host.cancel(params.taskId, "cancelled through MCP (tasks/cancel)");
      return {};
    });
  }

  /** Starts the run and answers with its task, durably made first (a tasks/get of it resolves). */
  private async create(tool: McpTool, input: unknown) {
    let runId: string;
    try {
      runId = tool.run!.runIdOf(input);
      await startNewRun(this.context, { ...tool.run!.startOf(input as never), runId });
    } catch (error) {
      // A run that cannot start is no task: the call's answer says why, as a plain call's does.
      return toolError(errorMessage(error));
    }
    await this.tasks.createTask({ context: { runId } }, 0, { method: "tools/call", params: { task: {} } } as never);
    // The handle is the task's state alone: no result, error or inputRequests (the spec's rule); tasks/get has them.
    const { result: _result, inputRequests: _requests, _meta: _pending, ...task } = (await this.detailed(runId)) as Record<string, unknown>;
    return { ...task, resultType: "task" };
  }

  /** A task as `tasks/get` answers it (and `notifications/tasks` tells it): its status, and what goes with it inlined. */
  async detailed(taskId: string) {
    const task = await this.found(taskId);
    const base = {
      taskId,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttl,
      ...(task.pollInterval === undefined ? {} : { pollIntervalMs: task.pollInterval }),
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    };
    if (task.status === "completed" || task.status === "failed")
      // A run that failed is a tool's answer with isError: `failed` is for JSON-RPC errors only (the spec's rule).
      return { ...base, status: "completed" as const, result: (await this.tasks.getTaskResult(taskId)) as Record<string, unknown> };
    if (task.status === "input_required") {
      const pending = ((task as { _meta?: Record<string, unknown> })._meta?.[pendingMetaKey] ?? []) as PendingItem[];
      const form = decisionForm(taskId, pending);
      return {
        ...base,
        status: "input_required" as const,
        inputRequests: { [waveKey(pending)]: { method: "elicitation/create", params: { mode: "form", ...form } } },
        _meta: { [pendingMetaKey]: pending },
      };
    }
    return { ...base, status: task.status };
  }

  /** The person's answer to the wave's form decides it; answers to a key not outstanding are ignored (the spec's rule). */
  private async update(taskId: string, responses: Record<string, unknown>): Promise<void> {
    await this.found(taskId);
    const pending = (await viewOfRun(this.context.store, taskId))?.pending ?? [];
    const answer = pending.length === 0 ? undefined : (responses[waveKey(pending)] as FormAnswer | undefined);
    if (answer === undefined || typeof answer !== "object" || answer === null) return;
    const decisions = decisionsOf(pending, answer);
    if (decisions.length === 0) return;
    try {
      await this.context.host.decide(taskId, { decisions, by: `${this.context.client} (tasks/update)` });
    } catch {
      // Decided already (the same update twice) or being continued elsewhere: the ack stands, tasks/get tells.
    }
  }

  private async found(taskId: string): Promise<Task> {
    const task = await this.tasks.getTask(taskId);
    if (task === null)
      throw new this.sdk.ProtocolError(invalidParams, `Failed to retrieve task: there is no task "${taskId}" (or its ttl ran out)`);
    return task;
  }

  /** Whether this request's client capabilities declare the extension. */
  private declares(serverContext: McpServerV2.ServerContext): boolean {
    return declaresTasks(serverContext.mcpReq.envelope as Record<string, unknown> | undefined);
  }

  private requireDeclared(serverContext: McpServerV2.ServerContext): void {
    if (!this.declares(serverContext))
      throw new this.sdk.ProtocolError(missingClientCapability, "Missing required client capability", {
        requiredCapabilities: { extensions: { [tasksExtension]: {} } },
      });
  }
}

/** Whether a request's envelope (its `_meta`) declares the extension in its client capabilities. */
export function declaresTasks(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.["io.modelcontextprotocol/clientCapabilities"] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[tasksExtension] !== undefined;
}

/** A wave's key in `inputRequests`: made from what it asks, so a later wave never reuses an earlier one's. */
function waveKey(pending: readonly PendingItem[]): string {
  return `planloop_decisions_${createHash("sha256").update(JSON.stringify(pending)).digest("hex").slice(0, 16)}`;
}
