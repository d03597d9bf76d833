// Values a JSON Schema describes, as fast-check arbitraries (for the OpenAPI property test): the
// keywords planloop's document uses — $ref into the document, anyOf/oneOf, enum, const, objects
// (required and optional properties), strings (lengths, pattern, uri), numbers, arrays — and
// anything at all where the schema says nothing. Deep schemas stop at `depth` with the smallest
// value that fits (a required field only, an empty list).
import fc from "fast-check";

type Schema = Record<string, unknown>;

export function arbitraryOf(schema: unknown, document: Schema, depth = 4): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) return fc.constant(undefined);
  const node = schema as Schema;
  if (typeof node.$ref === "string")
    return fc.constant(null).chain(() => arbitraryOf(resolve(node.$ref as string, document), document, depth));
  if ("const" in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  const branches = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryOf(branch, document, depth)));
  const type = Array.isArray(node.type) ? (node.type[0] as string) : (node.type as string | undefined);
  switch (type) {
    case "object":
      return objectOf(node, document, depth);
    case "array": {
      const minLength = (node.minItems as number | undefined) ?? 0;
      const maxLength = depth <= 0 ? minLength : Math.min((node.maxItems as number | undefined) ?? 3, minLength + 3);
      return fc.array(arbitraryOf(node.items, document, depth - 1), { minLength, maxLength });
    }
    case "string":
      return stringOf(node);
    case "integer":
    case "number": {
      const min =
        (node.minimum as number | undefined) ?? (node.exclusiveMinimum === undefined ? -1e6 : (node.exclusiveMinimum as number) + 1);
      const max = Math.min((node.maximum as number | undefined) ?? 1e6, min + 1e6);
      return type === "integer" ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(node: Schema, document: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set((node.required ?? []) as string[]);
  const keys = Object.keys(properties).filter((key) => depth > 0 || required.has(key));
  const record = Object.fromEntries(keys.map((key) => [key, arbitraryOf(properties[key], document, depth - 1)]));
  if (keys.length === 0)
    return node.additionalProperties === false
      ? fc.constant({})
      : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  return fc.record(record, { requiredKeys: keys.filter((key) => required.has(key)) });
}

function stringOf(node: Schema): fc.Arbitrary<string> {
  if (node.format === "uri") return fc.webUrl();
  const minLength = (node.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((node.maxLength as number | undefined) ?? 24, minLength + 24);
  if (typeof node.pattern === "string") {
    // A pattern's lengths are its own ({1,200}): a long match is cut to the schema's bounds only where it still matches.
    const pattern = new RegExp(node.pattern as string);
    return fc
      .stringMatching(pattern)
      .filter((text) => text.length >= minLength && text.length <= ((node.maxLength as number | undefined) ?? Infinity));
  }
  return fc.string({ minLength, maxLength, unit: "grapheme" });
}

function resolve(ref: string, document: Schema): unknown {
  let found: unknown = document;
  for (const part of ref.replace(/^#\//, "").split("/")) found = (found as Schema)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  if (found === undefined) throw new Error(`the document has no ${ref}`);
  return found;
}
