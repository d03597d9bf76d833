import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createRequire } from "node:module";
import { isRecord } from "../is-record.js";
import type { InputCheck } from "./input-check.js";
import { withDecimalMultipleOf } from "./decimal-multiple.js";

/**
 * A check of arguments against a plain JSON Schema (a tool's `input`, every MCP tool's), by Ajv,
 * a validator made for JSON Schema: draft 2020-12 unless the schema's `$schema` names draft-07,
 * -06 or -04 (or it only compiles as draft-07: `items` as a list, `definitions`). The arguments
 * are checked, never changed (no default is filled in, nothing coerced or removed), so the value
 * that passes is the one the model wrote. `format` is an annotation, as 2020-12 has it: a model's
 * "2024-05-01" for a `date-time` is the tool's to judge. A schema that cannot be checked (a `$ref`
 * cycle, a `$ref` to a document planloop does not have) throws here, at definition, with the reason.
 */
export function jsonSchemaCheck(schema: Record<string, unknown>): (value: unknown) => InputCheck {
  const cycle = refCycle(schema);
  if (cycle !== undefined) throw new Error(`its $ref chain ${cycle.join(" → ")} never reaches a schema`);
  const validate = compile(withPrototypeNames(schema));
  return (value) => {
    let valid: boolean;
    try {
      valid = validate(value) as boolean;
    } catch (error) {
      // A schema deeper than the checker can follow: the call fails, the run goes on.
      return { ok: false, problems: `the arguments could not be checked against the tool's schema (${(error as Error).message})` };
    }
    return valid ? { ok: true, value } : { ok: false, problems: describeErrors(validate.errors ?? []) };
  };
}

/**
 * Settings that keep the value as written (no defaults, no coercion, no removal).
 */
const settings: Options = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  // `required: ["constructor"]` is not met by Object.prototype's own.
  ownProperties: true,
  logger: false,
};

const olderDrafts = /json-schema\.org\/draft-0[467]\/schema/;

/** One validator of each dialect, made when first needed (making one takes ~10 ms). */
let draft2020: Ajv2020 | undefined;
let draft7: Ajv | undefined;

/** Draft-07's build, which reads draft-06 schemas too. */
function draftSeven(): Ajv {
  if (draft7 === undefined) {
    draft7 = withDecimalMultipleOf(new Ajv(settings));
    draft7.addMetaSchema(createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json") as object);
  }
  return draft7;
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (olderDrafts.test(declared)) return compileWith(draftSeven(), withoutDraftFour(schema));
  try {
    return compileWith((draft2020 ??= withDecimalMultipleOf(new Ajv2020(settings))), schema);
  } catch (error) {
    if (declared !== "") throw error;
    // No dialect named and not valid 2020-12: many tool schemas are still written as draft-07.
    try {
      return compileWith(draftSeven(), schema);
    } catch {
      throw error;
    }
  }
}

/**
 * A compiled schema is not kept by its `$id` (tools from several servers may reuse one) nor in
 * the cache (a server that makes tools for ever would grow it): the validator is the tool's alone.
 */
function compileWith(validator: Ajv | Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  try {
    return validator.compile(schema);
  } finally {
    if (isRecord(schema)) validator.removeSchema(schema);
  }
}

/** Ajv's draft-07 build reads draft-06 and -04 schemas but not the -04 meta-schema's address. */
function withoutDraftFour(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.$schema !== "string" || !schema.$schema.includes("draft-04")) return schema;
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas. */
const oneSchema = [
  "additionalProperties",
  "items",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const schemaLists = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const schemaMaps = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Ajv leaves out a property named `__proto__` (a guard of its generated code), so the schema it
 * gets says the same with a pattern: `properties.__proto__` becomes `patternProperties["^__proto__$"]`.
 * Nodes without one are passed as they are.
 */
function withPrototypeNames(schema: unknown): Record<string, unknown> {
  return JSON.stringify(schema).includes('"__proto__"')
    ? (rewritten(schema) as Record<string, unknown>)
    : (schema as Record<string, unknown>);
}

function rewritten(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(node)) {
    if (schemaMaps.includes(key) && isRecord(value))
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rewritten(sub)]));
    else if (schemaLists.includes(key) && Array.isArray(value)) copy[key] = value.map(rewritten);
    else if (oneSchema.includes(key)) copy[key] = rewritten(value);
    else copy[key] = value;
  }
  const properties = copy.properties;
  if (isRecord(properties) && Object.hasOwn(properties, "__proto__")) {
    const { __proto__: prototypeSchema, ...rest } = properties;
    copy.properties = rest;
    copy.patternProperties = { ...(isRecord(copy.patternProperties) ? copy.patternProperties : {}), "^__proto__$": prototypeSchema };
  }
  return { ...copy };
}

/** "field: message; other.field: missing (required)", each problem once. */
function describeErrors(errors: ReadonlyArray<ErrorObject>): string {
  const problems = new Set<string>();
  for (const error of errors) {
    const path = error.instancePath
      .split("/")
      .slice(1)
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required") {
      problems.add(`${[...path, String(params.missingProperty)].join(".")}: missing (required)`);
      continue;
    }
    const field = path.length > 0 ? path.join(".") : "arguments";
    problems.add(`${field}: ${error.message ?? error.keyword}${detailOf(error.keyword, params)}`);
  }
  return [...problems].join("; ");
}

function detailOf(keyword: string, params: Record<string, unknown>): string {
  if (keyword === "enum") return ` (${JSON.stringify(params.allowedValues)})`;
  if (keyword === "const") return ` (${JSON.stringify(params.allowedValue)})`;
  if (keyword === "additionalProperties" || keyword === "unevaluatedProperties")
    return ` (${JSON.stringify(params.additionalProperty ?? params.unevaluatedProperty)})`;
  return "";
}

/**
 * A chain of `$ref`s that comes back to where it started without passing through a schema of
 * its own (`a: { $ref: b }, b: { $ref: a }`): no value can be checked against it. Recursion
 * through `properties` or `items` (a tree) is fine and not reported.
 */
function refCycle(root: Record<string, unknown>): string[] | undefined {
  const target = (ref: string): unknown => {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      node = isRecord(node) ? node[part.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
    }
    return node;
  };
  const seenRefs = new Set<string>();
  const visit = (node: unknown): string[] | undefined => {
    if (!isRecord(node)) return undefined;
    for (const value of Object.values(node)) {
      if (isRecord(value)) {
        const found = visit(value);
        if (found) return found;
      } else if (Array.isArray(value)) {
        for (const item of value) {
          const found = visit(item);
          if (found) return found;
        }
      }
    }
    if (typeof node.$ref !== "string" || seenRefs.has(node.$ref)) return undefined;
    seenRefs.add(node.$ref);
    // Follow the chain of nodes that are only a reference.
    const chain = [node.$ref];
    let next = target(node.$ref);
    while (isRecord(next) && typeof next.$ref === "string" && Object.keys(next).every((key) => key === "$ref" || key === "description")) {
      if (chain.includes(next.$ref)) return [...chain, next.$ref];
      chain.push(next.$ref);
      next = target(next.$ref);
    }
    return undefined;
  };
  return visit(root);
}
