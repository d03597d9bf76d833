import type { ToolSpec } from "../../core/model.js";

/** Deeper than this, a schema is shown as `unknown`: a signature the model reads stays short. */
const maxDepth = 4;

/**
 * A tool as the program calls it: a doc comment from its description, then a typed async
 * function whose argument type is read from the tool's JSON Schema.
 *
 * @example
 * toolSignature({ name: "weather", description: "Today's weather.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } })
 * // "/** Today's weather. *\/\ntools.weather(args: { city: string }): Promise<unknown>"
 */
export function toolSignature(tool: ToolSpec): string {
  const comment =
    tool.description.trim() === ""
      ? ""
      : `/** ${tool.description
          .trim()
          .replace(/\*\//g, "* /")
          .replace(/\s*\n\s*/g, " ")} */\n`;
  const access = /^[A-Za-z_$][\w$]*$/.test(tool.name) ? `tools.${tool.name}` : `tools[${JSON.stringify(tool.name)}]`;
  return `${comment}${access}(args: ${schemaType(tool.inputSchema, 0)}): Promise<unknown>`;
}

/** A TypeScript type for a JSON Schema, as far as one can be read from it; `unknown` where not. */
export function schemaType(schema: unknown, depth: number): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null || depth > maxDepth) return "unknown";
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(" | ") || "never";
  if ("const" in node) return JSON.stringify(node.const);
  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((part) => schemaType(part, depth + 1)).join(" | ") || "unknown";
  const types = Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
  const shown = types.map((type) => typeOf(type, node, depth));
  return shown.length === 0 ? "unknown" : shown.join(" | ");
}

function typeOf(type: unknown, node: Record<string, unknown>, depth: number): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${schemaType(node.items, depth + 1)}>`;
    case "object":
      return objectType(node, depth);
    default:
      return node.properties !== undefined ? objectType(node, depth) : "unknown";
  }
}

function objectType(node: Record<string, unknown>, depth: number): string {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? (node.required as unknown[]) : []);
  const fields = Object.entries(properties).map(([key, value]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    const description = (value as { description?: unknown } | null)?.description;
    const note =
      typeof description === "string" && description.trim() !== ""
        ? ` /* ${description.trim().replace(/\*\//g, "* /").slice(0, 120)} */`
        : "";
    return `${name}${required.has(key) ? "" : "?"}: ${schemaType(value, depth + 1)};${note}`;
  });
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false && extra !== true) fields.push(`[key: string]: ${schemaType(extra, depth + 1)};`);
  return fields.length === 0 ? (extra === false ? "{}" : "Record<string, unknown>") : `{ ${fields.join(" ")} }`;
}
