import { describe, expect, it } from "vitest";
import { mcpTools, type McpClientLike, type McpToolInfo } from "../../mcp/index.js";
import { defineTool } from "./define-tool.js";
import type { JsonSchemaObject } from "./tool-input.js";

/**
 * Schemas a hostile MCP server (or a careless tools module) may hand planloop: each must be
 * checked, or refused at definition, quickly, and mean what its draft says.
 */

/** A few KB: level i has a resource with a dynamic anchor and one without, each referring to both of level i + 1. */
function doublingDynamicScopes(levels: number): JsonSchemaObject {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = i + 1 < levels ? [{ $ref: `A${i + 1}` }, { $ref: `B${i + 1}` }] : [{ type: "string" }];
    defs[`A${i}`] = { $id: `A${i}`, $dynamicAnchor: `a${i}`, anyOf: next, properties: { d: { $dynamicRef: `A${i}#a${i}` } } };
    defs[`B${i}`] = { $id: `B${i}`, anyOf: next };
  }
  return { $id: "https://example.com/root", type: "object", $defs: defs, properties: { x: { anyOf: [{ $ref: "A0" }, { $ref: "B0" }] } } };
}

const serverWith = (tool: McpToolInfo): McpClientLike => ({
  listTools: async () => ({ tools: [tool] }),
  callTool: async () => ({ content: [{ type: "text", text: "called" }] }),
});

describe("hostile JSON Schemas", () => {
  it("refuses at definition a schema whose dynamic scopes double with each level, instead of copying 2^n of them", () => {
    // Before: 12 levels made 8,190 copies (a 1 MB schema for Ajv, ~12 s); 20 levels ran out of memory.
    for (const levels of [12, 40]) {
      expect(() => defineTool({ name: "laughs", description: "d", input: doublingDynamicScopes(levels), execute: () => 1 })).toThrow(
        /more dynamic scopes than planloop follows/,
      );
    }
  });

  it("still checks a schema with a few dynamic scopes", () => {
    const tool = defineTool({ name: "few", description: "d", input: doublingDynamicScopes(3), execute: () => 1 });
    expect(tool.checkArgs({ x: "s" })).toEqual({ ok: true, value: { x: "s" } });
    expect(tool.checkArgs({ x: 1 })).toMatchObject({ ok: false });
  });

  it("an MCP server's tool with such a schema is still listed, its arguments left to the server", async () => {
    const [tool] = await mcpTools(serverWith({ name: "laughs", inputSchema: doublingDynamicScopes(12) }), { onNotice: () => {} });
    expect(tool!.name).toBe("laughs");
    expect(tool!.checkArgs({ x: 1 })).toMatchObject({ ok: true });
  });

  it("checks an MCP tool's draft-07 schema as draft-07: a keyword beside $ref is ignored", async () => {
    const inputSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { code: { $ref: "#/definitions/code", maxLength: 2 } },
      definitions: { code: { type: "string" } },
    };
    const [tool] = await mcpTools(serverWith({ name: "lookup", inputSchema }));
    // Draft-07 ignores maxLength beside $ref (what Ajv's draft-07 build also says once siblings are gone).
    expect(tool!.checkArgs({ code: "ABCD" })).toEqual({ ok: true, value: { code: "ABCD" } });
    expect(tool!.checkArgs({ code: 5 })).toMatchObject({ ok: false });
    // The model's copy is the schema without $schema, as before.
    expect(tool!.inputSchema).not.toHaveProperty("$schema");
    expect(tool!.inputSchema.properties).toEqual(inputSchema.properties);
  });
});
