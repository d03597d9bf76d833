import { describe, expect, it } from "vitest";
import { defineTool, executePlan } from "../../index.js";
import { jsonSchemaCheck } from "./json-schema-check.js";

describe("a plain JSON Schema input", () => {
  it("checks the arguments and adds nothing: no default is filled in, whatever it is", () => {
    const check = jsonSchemaCheck({
      type: "object",
      properties: {
        city: { type: "string" },
        unit: { type: "string", default: null },
        nested: { type: "object", properties: { page: { type: "integer", default: 1 } } },
      },
      required: ["city"],
    });
    expect(check({ city: "Paris" })).toEqual({ ok: true, value: { city: "Paris" } });
    expect(check({ city: "Paris", nested: {} })).toEqual({ ok: true, value: { city: "Paris", nested: {} } });
    expect(check({})).toMatchObject({ ok: false, problems: "city: missing (required)" });
  });

  it("holds an enum to the property's own type: a listed value of another type is refused", () => {
    const check = jsonSchemaCheck({
      type: "object",
      properties: {
        smoking: { type: "boolean", enum: ["dontcare", true, false] },
        metrics: { type: "array", items: { type: "string" }, enum: ["temperature", "co2"] },
      },
    });
    expect(check({ smoking: true })).toMatchObject({ ok: true });
    expect(check({ smoking: "dontcare" })).toMatchObject({
      ok: false,
      problems: expect.stringContaining("smoking: Invalid input: expected boolean"),
    });
    expect(check({ metrics: ["co2"] })).toMatchObject({ ok: false, problems: expect.stringContaining("metrics: Invalid option") });
    expect(check({ metrics: "co2" })).toMatchObject({ ok: false });
  });

  it("refuses a $ref cycle when the tool is made, naming the chain; a recursive tree is fine", () => {
    const cycle = {
      type: "object",
      properties: { x: { $ref: "#/$defs/a" } },
      $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
    };
    expect(() => jsonSchemaCheck(cycle)).toThrow("its $ref chain #/$defs/a → #/$defs/b → #/$defs/a never reaches a schema");
    expect(() => defineTool({ name: "t", description: "t", input: cycle as never, execute: () => 1 })).toThrow(
      /input is not a JSON Schema planloop can check: its \$ref chain/,
    );
    const tree = {
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    };
    const check = jsonSchemaCheck(tree);
    expect(check({ root: { children: [{ children: [] }] } })).toMatchObject({ ok: true });
    expect(check({ root: { children: [{ children: 3 }] } })).toMatchObject({ ok: false });
  });

  it("a tool made from it gets exactly what the plan gives", async () => {
    const received: unknown[] = [];
    const tool = defineTool({
      name: "search",
      description: "search",
      input: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer", default: 10 } }, required: ["q"] } as never,
      execute: (args: unknown) => (received.push(args), "ok"),
    });
    const result = await executePlan({ plan: { steps: [{ id: 1, task: "s", tool: "search", args: { q: "planloop" } }] }, tools: [tool] });
    expect(result.status).toBe("completed");
    expect(received).toEqual([{ q: "planloop" }]);
  });
});
