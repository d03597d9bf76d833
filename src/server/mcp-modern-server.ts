import type * as McpServerV2 from "@modelcontextprotocol/server";
import { z } from "zod";
import { loadOptionalPackage } from "../core/optional-package.js";
import { InputRequiredFlow } from "./mcp-input-required.js";
import type { McpCall } from "./mcp-run-follow.js";
import { ModernTasks, tasksExtension } from "./mcp-tasks-extension.js";
import { inputObjectOf, planloopTools, type McpToolContext } from "./mcp-tool-table.js";

/**
 * The 2.x SDK's server package (2026-07-28), loaded when MCP is first served; undefined where it
 * is missing from an install, and then every client gets the 2025-11-25 face.
 */
export function modernSdk(): typeof McpServerV2 | undefined {
  try {
    return loadOptionalPackage<typeof McpServerV2>({ name: "@modelcontextprotocol/server", neededFor: "MCP 2026-07-28" });
  } catch {
    return undefined;
  }
}

/**
 * planloop's MCP tools on the 2026-07-28 line (stateless: one server per request): the same
 * table as the 2025-11-25 face (`planloopTools`), registered with the SDK's 2.x `McpServer`. A
 * call that stops with its run waiting for a person asks through `inputRequired` (see
 * `InputRequiredFlow`); a client that declares the Tasks extension gets run tools as tasks
 * (`ModernTasks`).
 */
export function modernMcpServer(sdk: typeof McpServerV2, context: McpToolContext, secret?: string): McpServerV2.McpServer {
  const flow = new InputRequiredFlow(sdk, context, secret);
  const server = new sdk.McpServer(
    { name: "planloop", version: "1.0.0" },
    { capabilities: { tools: {}, extensions: { [tasksExtension]: {} } }, requestState: { verify: flow.verify } },
  );
  const tools = planloopTools(context);
  for (const tool of tools) {
    const answer = (input: never, serverContext: McpServerV2.ServerContext) =>
      tool.followsRun
        ? flow.answer((call) => tool.call(input, call), serverContext, callOf(serverContext))
        : tool.call(input, callOf(serverContext));
    server.registerTool(
      tool.name,
      {
        ...(tool.config.title === undefined ? {} : { title: tool.config.title }),
        description: tool.config.description,
        inputSchema: inputObjectOf(tool),
        outputSchema: z.object(tool.config.outputSchema),
      },
      answer as never,
    );
  }
  new ModernTasks(sdk, context).install(server, tools);
  return server;
}

/** The tool's call context as the table reads it. */
export function callOf(context: McpServerV2.ServerContext): McpCall {
  return {
    signal: context.mcpReq.signal,
    meta: context.mcpReq._meta,
    notify: (notification) => context.mcpReq.notify(notification as never),
  };
}
