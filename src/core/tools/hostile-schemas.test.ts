import { describe, expect, it } from "vitest";
import { mcpTools, type McpClientLike, type McpToolInfo } from "../../mcp/index.js";
import { defineTool } from "./define-tool.js";
import type { InputCheck } from "./input-check.js";
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

describe("a property named __proto__ (Ajv's generated code leaves it out)", () => {
  const checked = (schema: string) =>
    defineTool({ name: "proto", description: "d", input: JSON.parse(schema) as JsonSchemaObject, execute: () => 1 });
  const verdict = (tool: ReturnType<typeof checked>, value: string) => (tool.checkArgs(JSON.parse(value)) as InputCheck).ok;

  it("keeps a patternProperties the author wrote for ^__proto__$ beside it", () => {
    // Before: the property's schema replaced the author's pattern, and minLength checked nothing.
    const tool = checked(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"patternProperties":{"^__proto__$":{"minLength":3}}}',
    );
    expect(verdict(tool, '{"__proto__":"a"}')).toBe(false);
    expect(verdict(tool, '{"__proto__":5}')).toBe(false);
    expect(verdict(tool, '{"__proto__":"abc"}')).toBe(true);
  });

  it("a $ref to properties/__proto__ still finds its schema", () => {
    // Before: the schema was moved away, so the pointer reached Object.prototype, and anything passed.
    const tool = checked('{"type":"object","properties":{"__proto__":{"type":"string"},"x":{"$ref":"#/properties/__proto__"}}}');
    expect(verdict(tool, '{"x":5}')).toBe(false);
    expect(verdict(tool, '{"x":"s"}')).toBe(true);
  });

  it("inside a resource of its own, and in draft-07", () => {
    const nested = checked(
      '{"$id":"https://example.com/r","type":"object","$defs":{"o":{"$id":"o","type":"object","properties":{"__proto__":{"type":"integer"},"y":{"$ref":"#/properties/__proto__"}}}},"properties":{"x":{"$ref":"o"}}}',
    );
    expect(verdict(nested, '{"x":{"__proto__":"s"}}')).toBe(false);
    expect(verdict(nested, '{"x":{"y":"s"}}')).toBe(false);
    expect(verdict(nested, '{"x":{"__proto__":1,"y":2}}')).toBe(true);
    const draft7 = checked(
      '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"__proto__":{"type":"string"},"x":{"$ref":"#/properties/__proto__"}},"patternProperties":{"^__proto__$":{"minLength":3}}}',
    );
    expect(verdict(draft7, '{"x":5}')).toBe(false);
    expect(verdict(draft7, '{"__proto__":"a"}')).toBe(false);
    expect(verdict(draft7, '{"__proto__":"abc","x":"s"}')).toBe(true);
  });
});

describe("one URI or anchor on two schemas of a document", () => {
  const define = (input: JsonSchemaObject) => () => defineTool({ name: "twice", description: "d", input, execute: () => 1 });

  it("is refused, as Ajv refuses it, rather than read as the later one", () => {
    // Before: the later schema silently won ({ x: 1 } passed, { x: "s" } did not).
    const twoIds = {
      $id: "https://example.com/r",
      type: "object" as const,
      $defs: { a: { $id: "same", type: "string" }, b: { $id: "same", type: "integer" } },
      properties: { x: { $ref: "same" } },
    };
    expect(define(twoIds)).toThrow(/resolves to more than one schema/);
    const twoAnchors = {
      type: "object" as const,
      $defs: { a: { $anchor: "A", type: "string" }, b: { $anchor: "A", type: "integer" } },
      properties: { x: { $ref: "#A" } },
    };
    expect(define(twoAnchors)).toThrow(/resolves to more than one schema/);
  });

  it("an MCP tool with one is listed, its arguments left to the server", async () => {
    const inputSchema = {
      type: "object",
      $defs: { a: { $anchor: "A", type: "string" }, b: { $anchor: "A", type: "integer" } },
      properties: { x: { $ref: "#A" } },
    };
    const [tool] = await mcpTools(serverWith({ name: "twice", inputSchema }), { onNotice: () => {} });
    expect(tool!.checkArgs({ x: "s" })).toMatchObject({ ok: true });
  });
});

describe("a chain of references that never reaches a schema", () => {
  const define = (input: JsonSchemaObject) => () => defineTool({ name: "loop", description: "d", input, execute: () => 1 });

  it("is refused at definition through $dynamicRef, $id and anchors as through pointers", () => {
    // Before: the $dynamicRef loop passed every value (Ajv reads { $ref: <itself> } as anything
    // goes); the $id and anchor loops were refused only for overflowing the stack.
    const dynamicSelf = {
      type: "object" as const,
      $defs: { d: { $dynamicAnchor: "n", $dynamicRef: "#n" } },
      properties: { x: { $ref: "#/$defs/d" } },
    };
    expect(define(dynamicSelf)).toThrow(/its references #\/\$defs\/d → #\/\$defs\/d never reach a schema/);
    const byIds = {
      $id: "https://example.com/r",
      type: "object" as const,
      $defs: { a: { $id: "a", $ref: "b" }, b: { $id: "b", $ref: "a" } },
      properties: { x: { $ref: "a" } },
    };
    expect(define(byIds)).toThrow(/never reach a schema/);
    const byAnchors = {
      type: "object" as const,
      $defs: { a: { $anchor: "A", $ref: "#B" }, b: { $anchor: "B", $ref: "#A" } },
      properties: { x: { $ref: "#A" } },
    };
    expect(define(byAnchors)).toThrow(/never reach a schema/);
  });

  it("a recursive schema that goes through a property is no such chain", () => {
    const tree = define({
      type: "object",
      $dynamicAnchor: "node",
      properties: { child: { $dynamicRef: "#node" }, name: { type: "string" } },
    })();
    expect(tree.checkArgs({ child: { child: { name: "leaf" } } })).toMatchObject({ ok: true });
    expect(tree.checkArgs({ child: { child: { name: 5 } } })).toMatchObject({ ok: false });
  });
});

describe("an if inside an if, under unevaluatedProperties", () => {
  it("is checked at once, not rewritten into 2^n copies of each condition", () => {
    // Before: these 12 nested ifs (under 1 KB) took ~35 s and 900 MB to define, and a call then failed
    // as too deep to check; 16 ran out of memory.
    let condition: Record<string, unknown> = { properties: { a: { type: "string" } } };
    for (let level = 0; level < 12; level++) condition = { if: condition, then: { properties: { [`p${level}`]: { type: "integer" } } } };
    const tool = defineTool({
      name: "nested",
      description: "d",
      input: { type: "object", if: condition, then: { required: ["a"] }, unevaluatedProperties: false },
      execute: () => 1,
    });
    expect(tool.checkArgs({ a: "s" })).toEqual({ ok: true, value: { a: "s" } });
    expect(tool.checkArgs({ a: "s", extra: 1 })).toMatchObject({ ok: false });
  });
});

describe("references that fan out: allOf [{ $ref: next }, { $ref: next }], nested", () => {
  const doubling = (levels: number): JsonSchemaObject => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++)
      defs[`d${i}`] = i + 1 < levels ? { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] } : { type: "string" };
    return { type: "object", $defs: defs, properties: { x: { $ref: "#/$defs/d0" } } };
  };

  it("is refused at definition, rather than stalling the process on every call (2^n schemas per value)", () => {
    // Before: defined at once, then a call took 2^n steps: 8 s at 24 levels, hours at 40, with the event loop blocked.
    expect(() => defineTool({ name: "fan", description: "d", input: doubling(40), execute: () => 1 })).toThrow(
      /visits up to .* schema nodes/,
    );
    // The same in draft-07, whose references Ajv follows as written.
    const draft7 = JSON.parse(
      JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...doubling(40) }).replaceAll("$defs", "definitions"),
    ) as JsonSchemaObject;
    expect(() => defineTool({ name: "fan", description: "d", input: draft7, execute: () => 1 })).toThrow(/visits up to .* schema nodes/);
  });

  it("a few levels are checked as written", () => {
    const tool = defineTool({ name: "fan", description: "d", input: doubling(8), execute: () => 1 });
    expect(tool.checkArgs({ x: "s" })).toEqual({ ok: true, value: { x: "s" } });
    expect(tool.checkArgs({ x: 1 })).toMatchObject({ ok: false });
  });
});
