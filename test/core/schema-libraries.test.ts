// Tools accept zod 4 and zod 3 schemas, any Standard Schema (valibot, arktype) and plain JSON
// Schema: each checks the arguments (in a loop and in a plan) and gives the model its JSON Schema.
import { toJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod3";
import { defineTool, executePlan, runAgent, validatePlan, type Tool } from "planloop";
import { ScriptedModel } from "planloop/testing";

const weatherSchema = {
  type: "object" as const,
  properties: { city: { type: "string" }, days: { type: "integer" } },
  required: ["city"],
};

/** The same tool, its input written with each library. */
function tools(): Record<string, Tool> {
  const execute = (args: unknown) => `forecast for ${(args as { city: string }).city}`;
  return {
    "zod 4": defineTool({
      name: "weather",
      description: "Forecast",
      input: z.object({ city: z.string(), days: z.number().int().optional() }),
      execute,
    }),
    "zod 3": defineTool({
      name: "weather",
      description: "Forecast",
      input: z3.object({ city: z3.string().describe("a city"), days: z3.number().int().optional() }),
      execute,
    }),
    valibot: defineTool({
      name: "weather",
      description: "Forecast",
      input: v.object({ city: v.string(), days: v.optional(v.number()) }),
      inputSchema: toJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })),
      execute,
    }),
    arktype: defineTool({ name: "weather", description: "Forecast", input: type({ city: "string", "days?": "number.integer" }), execute }),
    "JSON Schema": defineTool({ name: "weather", description: "Forecast", input: weatherSchema, execute }),
  };
}

describe("any schema library", () => {
  for (const [library, tool] of Object.entries(tools())) {
    it(`${library}: the model sees a JSON Schema with the properties; bad arguments are an observation; good ones run`, async () => {
      expect(tool.inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
      const model = new ScriptedModel([
        { type: "tool_calls", calls: [{ id: "1", name: "weather", arguments: { city: 7 } }] },
        { type: "tool_calls", calls: [{ id: "2", name: "weather", arguments: { city: "Oslo" } }] },
        { type: "final", content: "done" },
      ]);
      const result = await runAgent({ model, tools: [tool], task: "weather in Oslo" });
      expect(result.status).toBe("completed");
      const [bad, good] = result.messages.filter((message) => message.role === "tool");
      expect(bad).toMatchObject({ error: { kind: "invalid_arguments", message: expect.stringContaining("city") } });
      expect(good).toMatchObject({ content: "forecast for Oslo" });

      const invalid = validatePlan({ steps: [{ id: 1, task: "w", tool: "weather", args: { days: 2 } }] }, { tools: [tool] });
      expect(invalid).toMatchObject({ ok: false, errors: [{ code: "invalid_arguments", message: expect.stringContaining("city") }] });
      const ran = await executePlan({ plan: { steps: [{ id: 1, task: "w", tool: "weather", args: { city: "Bergen" } }] }, tools: [tool] });
      expect(ran).toMatchObject({ status: "completed", output: "forecast for Bergen" });
    });
  }

  it("zod 3 keeps descriptions and integers in the JSON Schema", () => {
    expect(tools()["zod 3"]!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "a city" }, days: { type: "integer" } },
      required: ["city"],
    });
  });

  it("says what is supported when the input is none of them, and what to do when a library gives no JSON Schema", () => {
    const base = { name: "weather", description: "Forecast", execute: () => 1 };
    expect(() => defineTool({ ...base, input: { parse: () => 1 } as never })).toThrow(
      /input must be a zod 4 or zod 3 schema, a Standard Schema \(valibot, arktype, …; pass inputSchema .*\), or a JSON Schema object/,
    );
    expect(() => defineTool({ ...base, input: v.object({ city: v.string() }) })).toThrow(
      /this valibot schema cannot give the JSON Schema the model needs; pass it as inputSchema \(toJsonSchema\(schema\) from @valibot\/to-json-schema\)/,
    );
    expect(() => defineTool({ ...base, input: z3.object({ when: z3.date() }) })).toThrow(
      /the zod 3 type ZodDate has no JSON Schema here; pass inputSchema/,
    );
    expect(() => defineTool({ ...base, input: { type: "object", properties: { a: { type: "strng" } } } })).toThrow(
      /not a JSON Schema planloop can check/,
    );
  });

  it("a Standard Schema that validates asynchronously is checked when the call runs", async () => {
    const asyncSchema = {
      "~standard": {
        version: 1 as const,
        vendor: "mine",
        validate: async (value: unknown) =>
          typeof (value as { city?: unknown }).city === "string"
            ? { value }
            : { issues: [{ message: "city is required", path: ["city"] }] },
      },
    };
    const tool = defineTool({
      name: "weather",
      description: "Forecast",
      input: asyncSchema,
      inputSchema: weatherSchema,
      execute: () => "ok",
    });
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "1", name: "weather", arguments: {} }] },
      { type: "final", content: "done" },
    ]);
    const result = await runAgent({ model, tools: [tool], task: "t" });
    expect(result.messages.find((message) => message.role === "tool")).toMatchObject({
      error: { kind: "invalid_arguments", message: expect.stringContaining("city: city is required") },
    });
  });
});
