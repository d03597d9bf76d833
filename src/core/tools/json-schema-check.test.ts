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
      problems: "smoking: must be boolean",
    });
    expect(check({ metrics: ["co2"] })).toMatchObject({
      ok: false,
      problems: expect.stringContaining("metrics: must be equal to one of the allowed values"),
    });
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

  it("gives the verdicts zod's reader got wrong (each seen accepting invalid data)", () => {
    const verdicts = (schema: Record<string, unknown>, values: unknown[]) => {
      const check = jsonSchemaCheck(schema);
      return values.map((value) => check(value).ok);
    };
    // `required` keys that are not in `properties`
    expect(verdicts({ type: "object", required: ["id"] }, [{ id: 1 }, {}])).toEqual([true, false]);
    // keywords on a node without `type`
    expect(
      verdicts({ type: "object", properties: { n: { minimum: 5 }, s: { maxLength: 2 } } }, [{ n: 5 }, { n: 4 }, { s: "abc" }]),
    ).toEqual([true, false, false]);
    // `pattern` with Unicode property escapes
    expect(
      verdicts({ type: "object", properties: { name: { type: "string", pattern: "^\\p{L}+$" } } }, [{ name: "Zoë" }, { name: "Zo3" }]),
    ).toEqual([true, false]);
    // `const` and `enum` of objects and arrays
    const point = { type: "object", properties: { at: { const: { x: 1, y: [2] } }, pair: { enum: [[1, 2], { a: 1 }] } } };
    expect(
      verdicts(point, [{ at: { y: [2], x: 1 } }, { at: { x: 1, y: [3] } }, { pair: [1, 2] }, { pair: [2, 1] }, { pair: { a: 2 } }]),
    ).toEqual([true, false, true, false, false]);
    // `oneOf` branches told apart by `required`
    const byRequired = { type: "object", oneOf: [{ required: ["email"] }, { required: ["phone"] }] };
    expect(verdicts(byRequired, [{ email: "a" }, { phone: "1" }, { email: "a", phone: "1" }, {}])).toEqual([true, true, false, false]);
    // keywords beside `$ref`
    const besideRef = { type: "object", properties: { n: { $ref: "#/$defs/int", maximum: 3 } }, $defs: { int: { type: "integer" } } };
    expect(verdicts(besideRef, [{ n: 3 }, { n: 4 }, { n: 1.5 }])).toEqual([true, false, false]);
    // properties named like Object.prototype's own
    const prototypeNames = JSON.parse(
      '{ "type": "object", "properties": { "__proto__": { "type": "number" }, "constructor": { "type": "number" } }, "required": ["constructor"] }',
    );
    expect(
      verdicts(prototypeNames, [
        JSON.parse('{ "__proto__": 1, "constructor": 2 }'),
        JSON.parse('{ "__proto__": "x", "constructor": 2 }'),
        {},
      ]),
    ).toEqual([true, false, false]);
  });

  it("reads a schema by the draft it names, and a draft-07 one that names none", () => {
    const tupleSeven = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      items: [{ type: "string" }],
      additionalItems: false,
    };
    expect([jsonSchemaCheck(tupleSeven)(["a"]).ok, jsonSchemaCheck(tupleSeven)(["a", 1]).ok]).toEqual([true, false]);
    const unnamed = { type: "object", properties: { p: { type: "array", items: [{ type: "integer" }], additionalItems: false } } };
    expect([jsonSchemaCheck(unnamed)({ p: [1] }).ok, jsonSchemaCheck(unnamed)({ p: [1, 2] }).ok]).toEqual([true, false]);
    const prefix = { type: "object", properties: { p: { prefixItems: [{ type: "integer" }], items: false } } };
    expect([jsonSchemaCheck(prefix)({ p: [1] }).ok, jsonSchemaCheck(prefix)({ p: [1, 2] }).ok]).toEqual([true, false]);
  });

  it("says what is wrong, field by field; two tools may carry the same $id", () => {
    const schema = {
      $id: "https://example.com/order",
      type: "object",
      properties: { order: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, kind: { enum: ["a", "b"] } },
      additionalProperties: false,
    };
    const check = jsonSchemaCheck(schema);
    expect(jsonSchemaCheck({ ...schema })({ order: { id: "1" } }).ok).toBe(true);
    expect(check({ order: {}, kind: "c", extra: 1 })).toEqual({
      ok: false,
      problems:
        'arguments: must NOT have additional properties ("extra"); order.id: missing (required); kind: must be equal to one of the allowed values (["a","b"])',
    });
  });
});

describe("verdicts as the schema's own draft gives them", () => {
  const list = {
    definitions: { list: { type: "array" } },
    type: "object",
    properties: { rows: { $ref: "#/definitions/list", maxItems: 1 } },
  };

  it("draft-07 ignores the keywords beside a $ref; 2020-12 applies them", () => {
    const draftSeven = jsonSchemaCheck({ $schema: "http://json-schema.org/draft-07/schema#", ...list });
    const current = jsonSchemaCheck({ $schema: "https://json-schema.org/draft/2020-12/schema", ...list });
    expect(draftSeven({ rows: [1, 2] })).toMatchObject({ ok: true });
    expect(draftSeven({ rows: "no" })).toMatchObject({ ok: false });
    expect(current({ rows: [1, 2] })).toMatchObject({
      ok: false,
      problems: expect.stringContaining("rows: must NOT have more than 1 items"),
    });
    // A property named "$ref" is data, not a reference: its schema still applies.
    const named = jsonSchemaCheck({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { $ref: { type: "string" } },
    });
    expect(named({ $ref: 1 })).toMatchObject({ ok: false });
  });

  it("a $ref to an anchor is not read as a path (and not as a cycle)", () => {
    const check = jsonSchemaCheck({
      type: "object",
      properties: { tags: { $ref: "#tags" } },
      $defs: { tags: { $anchor: "tags", type: "array", items: { type: "string" } } },
    });
    expect(check({ tags: ["a"] })).toMatchObject({ ok: true });
    expect(check({ tags: [1] })).toMatchObject({ ok: false });
  });
});

describe("a schema refused at definition", () => {
  const define = (input: Record<string, unknown>) => () =>
    defineTool({ name: "pay", description: "Pay", input, execute: () => "paid" } as never);

  it.each([
    [{ type: "object", properties: { currency: { enum: [] } } }, "at /properties/currency/enum: enum must have non-empty array"],
    [{ type: "object", properties: { code: { type: "string", pattern: "([" } } }, "at /properties/code/pattern:"],
    [
      { type: "object", properties: { rows: { items: { $ref: "#/$defs/missing" } } } },
      "at /properties/rows/items/$ref: can't resolve reference #/$defs/missing",
    ],
    [
      JSON.parse('{ "type": "object", "properties": { "__proto__": { "enum": [] } } }'),
      "at /properties/__proto__/enum: enum must have non-empty array",
    ],
  ])("names the tool and the place: %j", (input, place) => {
    expect(define(input)).toThrow(`defineTool("pay"): input is not a JSON Schema planloop can check: `);
    expect(define(input)).toThrow(place);
  });
});

describe("one tool's schema, alone", () => {
  it("keeps no $id nested in a tool's schema for the next tool's $ref to find (found by the property in resolved-references.test.ts)", () => {
    const dialect = "https://json-schema.org/draft/2020-12/schema";
    const root = "https://example.com/root.json";
    // Given to Ajv as written (a pointer inside d1.json that names nothing, in a definition nothing uses).
    const first = jsonSchemaCheck({
      $schema: dialect,
      $id: root,
      $defs: { d1: { $id: "d1.json", allOf: [{ anyOf: [{ $ref: "#/$defs/d0" }] }] } },
    });
    expect(first(1)).toMatchObject({ ok: true });
    // d1.json is another tool's: here it names nothing.
    expect(() => jsonSchemaCheck({ $schema: dialect, $id: root, $ref: "d1.json", $defs: { d1: {} } })).toThrow(/can't resolve reference/);
  });
});
