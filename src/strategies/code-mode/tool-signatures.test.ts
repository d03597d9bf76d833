import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../core/tools/define-tool.js";
import { readProgram } from "./code-prompts.js";
import { schemaType, toolSignature } from "./tool-signatures.js";

describe("toolSignature", () => {
  it("shows a tool as a typed async function read from its JSON Schema", () => {
    const search = defineTool({
      name: "search_orders",
      description: "Finds orders.\nNewest first.",
      input: z.object({
        customer: z.string().describe("the customer's id"),
        status: z.enum(["open", "shipped"]).optional(),
        limit: z.number().int().optional(),
        tags: z.array(z.string()),
        range: z.object({ from: z.string(), to: z.string() }).optional(),
      }),
      execute: () => [],
    });
    expect(toolSignature(search)).toBe(
      "/** Finds orders. Newest first. */\n" +
        'tools.search_orders(args: { customer: string; /* the customer\'s id */ status?: "open" | "shipped"; limit?: number; tags: Array<string>; range?: { from: string; to: string; }; }): Promise<unknown>',
    );
  });

  it("quotes a name that is not an identifier, and reads unions, constants, nulls and open records", () => {
    expect(toolSignature({ name: "get-weather", description: "", inputSchema: { type: "object", properties: {} } })).toBe(
      'tools["get-weather"](args: Record<string, unknown>): Promise<unknown>',
    );
    expect(schemaType({ anyOf: [{ type: "string" }, { type: "null" }] }, 0)).toBe("string | null");
    expect(schemaType({ const: "x" }, 0)).toBe('"x"');
    expect(schemaType({ type: ["number", "null"] }, 0)).toBe("number | null");
    expect(schemaType({ type: "object", additionalProperties: { type: "number" } }, 0)).toBe("{ [key: string]: number; }");
    expect(schemaType({ type: "object", properties: {}, additionalProperties: false }, 0)).toBe("{}");
    expect(schemaType({ description: "anything" }, 0)).toBe("unknown");
  });
});

describe("readProgram", () => {
  it("takes the first fenced block, or the whole reply", () => {
    expect(readProgram("Here it is:\n```js\nreturn 1;\n```\nDone.")).toBe("return 1;");
    expect(readProgram("```javascript\nreturn 2;\n```")).toBe("return 2;");
    expect(readProgram("  return 3;  ")).toBe("return 3;");
  });
});
