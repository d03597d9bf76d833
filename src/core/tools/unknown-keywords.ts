import { isRecord } from "../is-record.js";
import { mapSubschemas } from "./schema-nodes.js";

/** The keywords of drafts 6, 7 and 2020-12: anything else is an unknown keyword, an annotation with no identifiers in it. */
const known = new Set(
  (
    "$schema $id $anchor $dynamicAnchor $ref $dynamicRef $defs $vocabulary $comment definitions allOf anyOf oneOf not if then " +
    "else dependentSchemas dependencies prefixItems items additionalItems contains properties patternProperties " +
    "additionalProperties propertyNames unevaluatedItems unevaluatedProperties type enum const multipleOf maximum " +
    "exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems maxContains " +
    "minContains maxProperties minProperties required dependentRequired format contentEncoding contentMediaType " +
    "contentSchema title description default deprecated readOnly writeOnly examples"
  ).split(" "),
);

export const isKnownKeyword = (keyword: string) => known.has(keyword);

/** A value under an unknown keyword with every `$id` and anchor taken out, so Ajv does not collect them. */
export function withoutIdentifiers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIdentifiers);
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value)) {
    if (key !== "$id" && key !== "$anchor" && key !== "$dynamicAnchor") copy[key] = withoutIdentifiers(inner);
  }
  return { ...copy };
}

/**
 * A schema whose unknown keywords hold no `$id`: the spec counts an identifier only where a
 * schema is, while Ajv collects one anywhere, then finds two schemas for one URI
 * (the JSON-Schema-Test-Suite's `unknownKeyword` case, in every draft).
 */
export function withoutUnknownIdentifiers(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const copy = mapSubschemas(node, withoutUnknownIdentifiers);
  for (const [key, value] of Object.entries(copy)) if (!known.has(key)) copy[key] = withoutIdentifiers(value);
  return { ...copy };
}
