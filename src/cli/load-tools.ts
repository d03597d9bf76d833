import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Tool } from "../core/tools/define-tool.js";
import { CliError } from "./cli-error.js";

/** The tools a module exports: an array named `tools` or the default export, or every export made with defineTool. */
export async function loadTools(modulePath: string): Promise<Tool[]> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load tools from ${modulePath}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const isTool = (value: unknown): value is Tool =>
    typeof value === "object" && value !== null && "inputSchema" in value && "name" in value;
  const listed = [exports.tools, exports.default].find(Array.isArray) as unknown[] | undefined;
  const tools = (listed ?? Object.values(exports)).filter(isTool);
  if (tools.length === 0) throw new CliError(`${modulePath} exports no tools: export an array \`tools\` of tools made with defineTool`);
  return tools;
}
