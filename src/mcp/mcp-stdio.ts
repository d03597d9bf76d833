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
  options: McpToolsOptions & { clientName?: string; maxRestarts?: number } = {},
): Promise<McpServerTools> {
  const needed = { name: "@modelcontextprotocol/sdk", neededFor: "planloop/mcp (mcpServerTools)" };
  const { Client } = loadOptionalPackage<typeof McpClient>({ module: "@modelcontextprotocol/sdk/client/index.js", ...needed });
  const { StdioClientTransport } = loadOptionalPackage<typeof McpStdio>({ module: "@modelcontextprotocol/sdk/client/stdio.js", ...needed });
  const notice = options.onNotice ?? ((line: string) => process.stderr.write(`${line}\n`));
  const maxRestarts = options.maxRestarts ?? 3;
  let closed = false;
  let stopping = false;
  /** The server started and initialized, within `timeoutMs` and the caller's signal. */
  const start = async () => {
    const client = new Client({ name: options.clientName ?? "planloop", version: "1.0.0" });
    // A server's own log lines (on its stderr) are dropped unless the caller asks for them.
    const transport = new StdioClientTransport({ ...server, stderr: server.stderr ?? "ignore" });
    try {
      await client.connect(transport, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
    } catch (error) {
      await client.close().catch(() => {});
      if (options.signal?.aborted) throw error;
      throw new Error(`the MCP server ${server.command} did not start: ${(error as Error).message}`, { cause: error });
    }
    closed = false;
    client.onclose = () => {
      closed = true;
    };
    return client;
  };
  let client = await start();
  let restarts = 0;
  const connected: McpClientLike = {
    listTools: (params, requestOptions) => (client as unknown as McpClientLike).listTools(params, requestOptions),
    // Task-only tools are called through the client's tasks (the client as it runs now; not restarted for them).
    get experimental() {
      return (client as unknown as McpClientLike).experimental;
    },
    async callTool(params, resultSchema, requestOptions) {
      if (closed && !stopping) {
        // The connection closed (the server died, or sent a message over the SDK's 10 MB limit): start it again, a few times.
        if (restarts >= maxRestarts)
          throw new Error(`the MCP server ${server.command} closed its connection again; it was restarted ${maxRestarts} times already`);
        restarts += 1;
        notice(`planloop/mcp: the connection to ${server.command} had closed; restarted it (${restarts} of ${maxRestarts})`);
        client = await start();
      }
      try {
        return await (client as unknown as McpClientLike).callTool(params, resultSchema, requestOptions);
      } catch (error) {
        if (!closed) throw error;
        // Not retried: the same call would close it again.
        throw Object.assign(
          new Error(
            `the MCP server's connection closed during the call (${(error as Error).message}); a result over the SDK's 10 MB limit does this. ` +
              "The server is started again for the next call",
          ),
          { retryable: false },
        );
      }
    },
  };
  try {
    const close = async () => {
      stopping = true;
      await client.close();
    };
    const tools = await mcpTools(connected, options);
    return {
      tools,
      // The client of the server as it runs now (a restart makes a new one).
      get client() {
        return client as unknown as McpClientLike;
      },
      close,
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
