import { isRecord } from "../is-record.js";

/** Keywords whose value is one schema. */
const oneSchema = new Set([
  "additionalItems",
  "additionalProperties",
  "contains",
  "contentSchema",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is a list of schemas (`items` as a list: draft-07). */
const schemaLists = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to schemas (`dependencies`: to a schema or to a list of names). */
const schemaMaps = new Set(["$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties", "properties"]);

/** A JSON Pointer token: "~" and "/" escaped (RFC 6901). */
const token = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * A copy of a schema node with each schema directly inside it (under `properties`, `items`,
 * `allOf`…) passed through `change`; values that are data (`enum`, `const`, `default`, a
 * property *named* `$ref`) are never taken for schemas. The copy has no prototype in the way.
 */
export function mapSubschemas(node: Record<string, unknown>, change: (schema: unknown, key: string) => unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(node)) {
    if (schemaMaps.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = Object.create(null);
      for (const [name, sub] of Object.entries(value)) map[name] = isRecord(sub) ? change(sub, `${key}/${token(name)}`) : sub;
      copy[key] = { ...map };
    } else if (schemaLists.has(key) && Array.isArray(value)) copy[key] = value.map((sub, index) => change(sub, `${key}/${index}`));
    else if (oneSchema.has(key)) copy[key] = change(value, key);
    else copy[key] = value;
  }
  return copy;
}

/**
 * Every schema node of a schema with its JSON Pointer from the root ("" for the root), the
 * deepest first: where a problem is, the innermost node that has it names it best.
 */
export function schemaNodes(root: unknown): Array<{ pointer: string; node: Record<string, unknown> }> {
  const found: Array<{ pointer: string; node: Record<string, unknown> }> = [];
  const visit = (node: unknown, pointer: string) => {
    if (!isRecord(node)) return;
    mapSubschemas(node, (sub, key) => {
      visit(sub, `${pointer}/${key}`);
      return sub;
    });
    found.push({ pointer, node });
  };
  visit(root, "");
  return found;
}
