import type * as McpClient from "@modelcontextprotocol/sdk/client/index.js";
import type * as McpStdio from "@modelcontextprotocol/sdk/client/stdio.js";
import { loadOptionalPackage } from "../core/optional-package.js";
import type { Tool } from "../core/tools/define-tool.js";
import { mcpTools, type McpClientLike, type McpToolsOptions } from "./mcp-tools.js";

/** An MCP server planloop started over stdio, its tools, and how to stop it. */
export interface McpServerTools {
  tools: Tool[];
  /** The connected client, for anything else the server offers (resources, prompts). */
  client: McpClientLike;
  /** Closes the connection and ends the server's process. */
  close(): Promise<void>;
}

/**
 * Starts an MCP server as a child process speaking over stdio, connects to it, and returns
 * its tools (see `mcpTools`). Needs the optional peer `@modelcontextprotocol/sdk`.
 *
 * @example
 * const fs = await mcpServerTools({ command: "npx", args: ["@modelcontextprotocol/server-filesystem", dir] }, { prefix: "fs_" });
 * try { await planAndExecute({ task, planner, tools: fs.tools }); } finally { await fs.close(); }
 */
export async function mcpServerTools(
  server: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; stderr?: "ignore" | "inherit" },
  options: McpToolsOptions & { clientName?: string } = {},
): Promise<McpServerTools> {
  const needed = { name: "@modelcontextprotocol/sdk", neededFor: "planloop/mcp (mcpServerTools)" };
  const { Client } = loadOptionalPackage<typeof McpClient>({ module: "@modelcontextprotocol/sdk/client/index.js", ...needed });
  const { StdioClientTransport } = loadOptionalPackage<typeof McpStdio>({ module: "@modelcontextprotocol/sdk/client/stdio.js", ...needed });
  const client = new Client({ name: options.clientName ?? "planloop", version: "1.0.0" });
  // A server's own log lines (on its stderr) are dropped unless the caller asks for them.
  await client.connect(new StdioClientTransport({ ...server, stderr: server.stderr ?? "ignore" }));
  try {
    const connected = client as unknown as McpClientLike;
    return { tools: await mcpTools(connected, options), client: connected, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
