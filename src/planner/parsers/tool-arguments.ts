import type { Tool } from "../../core/tools/define-tool.js";

/** The tool's argument names in schema order, and which are required. */
export function argumentNames(tool: Tool | undefined): { names: string[]; required: string[] } {
  const schema = tool?.inputSchema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return { names: Object.keys(schema?.properties ?? {}), required: schema?.required ?? [] };
}

/**
 * Turns ReWOO's single text input (`Search[capital of France]`) into the tool's arguments: a
 * JSON object is taken as it is; otherwise the text fills the tool's one string argument
 * (its only property, or its only required one), or `input` when that is unclear.
 */
export function argumentsFromText(tool: Tool | undefined, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // Not JSON after all: treat it as text.
    }
  }
  const { names, required } = argumentNames(tool);
  const key = names.length === 1 ? names[0]! : required.length === 1 ? required[0]! : "input";
  return { [key]: unquote(trimmed) };
}

function unquote(text: string): string {
  const quoted = /^"(.*)"$/s.exec(text) ?? /^'(.*)'$/s.exec(text);
  return quoted ? quoted[1]! : text;
}
