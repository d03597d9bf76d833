// The arguments that start `planloop mcp` from the source (through tsx) over a store, with the
// ui fixtures' tools and pipelines: what an MCP client's config would run.
import { join } from "node:path";
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
