import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSchemaCheck } from "./json-schema-check.js";
import { resolvedReferences } from "./resolved-references.js";

describe("references worked out before Ajv reads the schema", () => {
  it("makes every $ref a pointer and leaves no $id or anchor behind", () => {
    const resolved = resolvedReferences({
      $id: "https://example.com/order",
      properties: { customer: { $ref: "customer" }, total: { $ref: "#money" } },
      $defs: {
        customer: { $id: "customer", properties: { name: { $ref: "#/$defs/name" } }, $defs: { name: { type: "string" } } },
        money: { $anchor: "money", type: "number", multipleOf: 0.01 },
      },
    });
    expect(resolved).toEqual({
      properties: { customer: { $ref: "#/%24defs/customer" }, total: { $ref: "#/%24defs/money" } },
      $defs: {
        customer: { properties: { name: { $ref: "#/%24defs/customer/%24defs/name" } }, $defs: { name: { type: "string" } } },
        money: { type: "number", multipleOf: 0.01 },
      },
    });
    const check = jsonSchemaCheck({ $schema: "https://json-schema.org/draft/2020-12/schema", ...(resolved as object) });
    // A price in cents through two references: decimal multipleOf still holds.
    expect(check({ customer: { name: "Ada" }, total: 19.99 })).toEqual({ ok: true, value: { customer: { name: "Ada" }, total: 19.99 } });
    expect(check({ customer: { name: 7 }, total: 19.999 })).toMatchObject({ ok: false });
  });

  it("binds a $dynamicRef by the path that reached it: one node read in two scopes is two copies", () => {
    const schema = {
      $id: "https://example.com/tree",
      $defs: { node: { $id: "node", $dynamicAnchor: "leaf", additionalProperties: { $dynamicRef: "#leaf" } } },
      properties: {
        numbers: { $id: "numbers", $dynamicAnchor: "leaf", type: ["object", "number"], $ref: "node" },
        words: { $id: "words", $dynamicAnchor: "leaf", type: ["object", "string"], $ref: "node" },
      },
    };
    const resolved = resolvedReferences(schema) as { $defs: Record<string, unknown> };
    expect(Object.keys(resolved.$defs).sort()).toEqual(["node", "planloop-dynamic-scope-0", "planloop-dynamic-scope-1"]);
    const check = jsonSchemaCheck(schema);
    expect(check({ numbers: { a: 1, b: { c: 2 } }, words: { a: "x" } })).toMatchObject({ ok: true });
    expect(check({ numbers: { a: "x" } })).toMatchObject({ ok: false });
    expect(check({ words: { a: { b: 1 } } })).toMatchObject({ ok: false });
  });

  it("leaves alone what it does not follow: another document, a pointer into an unknown keyword, an $id with a fragment", () => {
    expect(resolvedReferences({ $ref: "https://example.com/elsewhere.json" })).toBeUndefined();
    expect(resolvedReferences({ $ref: "#/x-extra/inner", "x-extra": { inner: { type: "string" } } })).toBeUndefined();
    expect(resolvedReferences({ properties: { a: { $id: "#a" } } })).toBeUndefined();
  });

  it("keeps data as written: an $id inside const, a property named $id or __proto__, odd names in a pointer", () => {
    const schema = {
      properties: {
        $id: { const: { $id: "https://example.com/not-an-id" } },
        ["__proto__"]: { $ref: "#/$defs/a%20b~0c" },
      },
      $defs: { "a b~c": { type: "integer" } },
    };
    expect(resolvedReferences(schema)).toMatchObject({ properties: { $id: { const: { $id: "https://example.com/not-an-id" } } } });
    const check = jsonSchemaCheck(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>);
    const value = JSON.parse('{"$id": {"$id": "https://example.com/not-an-id"}, "__proto__": 3}') as unknown;
    expect(check(value)).toMatchObject({ ok: true });
    expect(check(JSON.parse('{"__proto__": "three"}'))).toMatchObject({ ok: false, problems: "__proto__: must be integer" });
  });
});

describe("references worked out, as a property", () => {
  /** Schemas over three definitions, each maybe with an `$id` and an anchor, referred to by pointer, by id and by anchor. */
  const definitionNames = ["d0", "d1", "d2"] as const;
  const reference = fc.oneof(
    ...definitionNames.map((name) => fc.constant(`#/$defs/${name}`)),
    ...definitionNames.map((name) => fc.constant(`${name}.json`)),
    ...definitionNames.map((name) => fc.constant(`#${name}-anchor`)),
  );
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom({ type: "string" }, { type: "integer" }, { minimum: 3 }, { type: "array", maxItems: 2 }, { const: 1 }, true, false),
      fc.record({ $ref: reference }),
      fc.record({ properties: fc.record({ a: tie("node"), b: tie("node") }) }),
      fc.record({ items: tie("node") }),
      fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
      fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
      fc.record({ not: tie("node") }),
    ),
  }));
  const definition = fc.record({ body: node, id: fc.boolean(), anchor: fc.boolean() });
  const schema = fc.record({ root: node, definitions: fc.tuple(definition, definition, definition) }).map(({ root, definitions }) => ({
    // Named, so planloop does not try draft-07 when 2020-12 refuses it.
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.com/root.json",
    ...(typeof root === "object" ? (root as object) : { allOf: [root] }),
    $defs: Object.fromEntries(
      definitions.map(({ body, id, anchor }, index) => [
        `d${index}`,
        {
          ...(id ? { $id: `d${index}.json` } : {}),
          ...(anchor ? { $anchor: `d${index}-anchor` } : {}),
          allOf: [body],
        },
      ]),
    ),
  }));

  it("gives Ajv's own verdict on schemas Ajv reads right (pointers, plain ids and anchors): 200 schemas, 10 values each", () => {
    fc.assert(
      fc.property(schema, fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 10, maxLength: 10 }), (written, values) => {
        let original: ((value: unknown) => boolean) | undefined;
        try {
          // A validator of its own: Ajv keeps a compiled schema by its $id.
          const validate = new Ajv2020({ strict: false, allErrors: true, logger: false }).compile(structuredClone(written));
          original = (value) => {
            try {
              return validate(value) as boolean;
            } catch {
              return false;
            }
          };
        } catch {
          original = undefined;
        }
        let check: ReturnType<typeof jsonSchemaCheck> | undefined;
        try {
          check = jsonSchemaCheck(structuredClone(written));
        } catch {
          check = undefined;
        }
        // A reference that names nothing (an anchor inside a resource of its own, from outside it) is refused by both.
        expect(check === undefined).toBe(original === undefined);
        if (check === undefined || original === undefined) return;
        for (const value of values) expect(check(value).ok, JSON.stringify({ written, value })).toBe(original(value));
      }),
      { numRuns: 200, seed: 56 },
    );
  });
});
