// The arguments that start `planloop mcp` from the source (through tsx) over a store, with the
// ui fixtures' tools and pipelines: what an MCP client's config would run.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { repoRoot, testRoot } from "./paths.js";

export function mcpServerArgs(store: string): string[] {
  return [
    "--import",
    "tsx",
    join(repoRoot, "src", "cli", "main.ts"),
    "mcp",
    "--tools",
    join(testRoot, "fixtures", "ui-tools.ts"),
    "--store",
    store,
  ];
}

/** An MCP SDK client of `planloop mcp` over stdio (a process of its own), the runs' tools logging to `log`. */
export async function connectMcp(store: string, log: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mcpServerArgs(store),
    cwd: repoRoot,
    env: { ...(process.env as Record<string, string>), PLANLOOP_TEST_LOG: log },
    stderr: "pipe",
  });
  const client = new Client({ name: "planloop-test", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return client;
}
