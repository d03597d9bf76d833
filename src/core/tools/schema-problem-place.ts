import { schemaNodes } from "./schema-nodes.js";

/** Keywords whose value is other schemas or names: a problem inside them is found at the node it is in. */
const notProbed = new Set([
  "$ref",
  "$dynamicRef",
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);

/**
 * Where in a schema the problem a validator refused it for is, as a JSON Pointer
 * ("/properties/currency/enum"): the validator names the keyword ("enum must have non-empty
 * array") but not where it is. Each keyword of each node, the deepest first, is compiled alone
 * (with the schema's `$schema`); the first that is refused for the same reason is the place. A
 * reference that does not resolve is found by the reference it names. Only run on a refusal.
 */
export function schemaProblemPlace(
  schema: Record<string, unknown>,
  reason: string,
  compile: (schema: Record<string, unknown>) => unknown,
): string | undefined {
  const dialect = typeof schema.$schema === "string" ? { $schema: schema.$schema } : {};
  for (const { pointer, node } of schemaNodes(schema)) {
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === "$ref" && typeof value === "string" && reason.includes(`reference ${value} `)) return `${pointer}/$ref`;
      if (notProbed.has(keyword) || keyword === "$schema") continue;
      try {
        compile({ ...dialect, [keyword]: value });
      } catch (error) {
        if ((error as Error).message === reason) return `${pointer}/${keyword}`;
      }
    }
  }
  return undefined;
}
