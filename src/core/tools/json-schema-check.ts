import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createRequire } from "node:module";
import { isRecord } from "../is-record.js";
import type { InputCheck } from "./input-check.js";
import { withDecimalMultipleOf } from "./decimal-multiple.js";
import { inPlaceCost } from "./in-place-cost.js";
import { resolvedReferences, TooManyDynamicScopes } from "./resolved-references.js";
import { mapSubschemas, schemaNodes } from "./schema-nodes.js";
import { withUnevaluatedConditionals } from "./unevaluated-conditionals.js";
import { withoutUnknownIdentifiers } from "./unknown-keywords.js";
import { schemaProblemPlace } from "./schema-problem-place.js";

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
  let validate: ValidateFunction;
  try {
    validate = compile(schema);
  } catch (error) {
    const reason = (error as Error).message;
    const place = schemaProblemPlace(schema, reason, compile);
    throw new Error(place === undefined ? reason : `at ${place}: ${reason}`);
  }
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

function compile(written: Record<string, unknown>): ValidateFunction {
  const declared = typeof written.$schema === "string" ? written.$schema : "";
  const schema = withPrototypeNames(written);
  const asDraftSeven = () => withinCost(withoutUnknownIdentifiers(withoutRefSiblings(withoutDraftFour(schema))) as Record<string, unknown>);
  if (olderDrafts.test(declared)) return compileWith(draftSeven(), asDraftSeven());
  try {
    return compileWith((draft2020 ??= withDecimalMultipleOf(new Ajv2020(settings))), forAjv2020(schema));
  } catch (error) {
    // Too many dynamic scopes is not read as draft-07 instead (which would ignore its $dynamicRefs).
    if (declared !== "" || error instanceof TooManyDynamicScopes || error instanceof RefusedSchema) throw error;
    // No dialect named and not valid 2020-12: many tool schemas are still written as draft-07.
    try {
      return compileWith(draftSeven(), asDraftSeven());
    } catch {
      throw error;
    }
  }
}

/** A 2020-12 schema as Ajv reads it right: references worked out here, conditionals it misreads rewritten. */
function forAjv2020(schema: Record<string, unknown>): Record<string, unknown> {
  const resolved = resolvedReferences(schema);
  if (resolved === undefined) return schema;
  // A chain of references through `$id`s, anchors or `$dynamicRef`s that never reaches a schema
  // is one of pointers here (Ajv reads `{ $ref: <itself> }` as anything goes).
  const cycle = refCycle(resolved);
  if (cycle !== undefined) throw new RefusedSchema(`its references ${cycle.map(decodeURIComponent).join(" → ")} never reach a schema`);
  return withUnevaluatedConditionals(withinCost(resolved));
}

/**
 * The schema, if one value is checked against at most `maxInPlaceCost` of its nodes. Measured
 * where its references are pointers into it alone: a draft-07 schema with `$id`s is not.
 */
function withinCost(schema: Record<string, unknown>): Record<string, unknown> {
  if (schemaNodes(schema).some(({ node }) => typeof node.$id === "string")) return schema;
  const cost = inPlaceCost(schema);
  if (cost > maxInPlaceCost)
    throw new RefusedSchema(
      `checking one value against it visits up to ${cost} schema nodes (its references fan out), more than ${maxInPlaceCost}`,
    );
  return schema;
}

/** Schema nodes one value may be checked against, at most: more is a schema made to stall the checker. */
const maxInPlaceCost = 100_000;

/** A 2020-12 schema refused before Ajv reads it: not read as draft-07 instead, which would ignore what it refers to. */
class RefusedSchema extends Error {}

/**
 * A compiled schema is not kept by its `$id` (tools from several servers may reuse one) nor in
 * the cache (a server that makes tools for ever would grow it): the validator is the tool's alone.
 * Nor are the `$id`s nested in it, which Ajv registers as it reads them, even when the compile
 * then fails: left, a later tool's `$ref` to such an address found this tool's schema.
 */
function compileWith(validator: Ajv | Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  const known = new Set([...Object.keys(validator.schemas), ...Object.keys(validator.refs)]);
  try {
    return validator.compile(schema);
  } finally {
    if (isRecord(schema)) validator.removeSchema(schema);
    for (const id of Object.keys(validator.schemas)) if (!known.has(id)) validator.removeSchema(id);
    for (const id of Object.keys(validator.refs)) if (!known.has(id)) delete validator.refs[id];
  }
}

/** Ajv's draft-07 build reads draft-06 and -04 schemas but not the -04 meta-schema's address. */
function withoutDraftFour(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.$schema !== "string" || !schema.$schema.includes("draft-04")) return schema;
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/**
 * Ajv leaves out a property named `__proto__` (a guard of its generated code), so the schema it
 * gets says the same with a pattern: beside `properties.__proto__` (left where it is, so a `$ref`
 * to it still finds it) goes a `patternProperties` entry matching only `__proto__` whose schema is
 * a `$ref` to it — under a pattern of its own, so one the author wrote for `^__proto__$` still
 * counts too. Nodes without one are passed as they are.
 */
function withPrototypeNames(schema: Record<string, unknown>): Record<string, unknown> {
  return JSON.stringify(schema).includes('"__proto__"') ? (rewritten(schema, "") as Record<string, unknown>) : schema;
}

/** `pointer`: the node's place in the resource it is in (a `$id` that is not an anchor starts one). */
function rewritten(node: unknown, pointer: string): unknown {
  if (!isRecord(node)) return node;
  const here = typeof node.$id === "string" && !node.$id.startsWith("#") ? "" : pointer;
  const copy = mapSubschemas(node, (sub, key) => rewritten(sub, `${here}/${key}`));
  const properties = copy.properties;
  if (isRecord(properties) && Object.hasOwn(properties, "__proto__")) {
    const patterns: Record<string, unknown> = { ...(isRecord(copy.patternProperties) ? copy.patternProperties : {}) };
    let pattern = "^__proto__$";
    while (Object.hasOwn(patterns, pattern)) pattern = `^(?:${pattern.slice(1, -1)})$`;
    const target = `${here}/properties/__proto__`.split("/").map(encodeURIComponent).join("/");
    copy.patternProperties = { ...patterns, [pattern]: { $ref: `#${target}` } };
  }
  return { ...copy };
}

/** What drafts up to 7 keep of a node beside its `$ref`: the definitions it may point into, and notes. */
const keptBesideRef = new Set(["$ref", "$schema", "definitions", "title", "description", "$comment"]);

/**
 * Drafts up to 7 ignore every keyword beside a `$ref` (a `maxItems` there checks nothing), while
 * Ajv 8 applies them in every draft: the schema Ajv gets leaves them out, so a tool's schema
 * means what its author's draft says.
 */
function withoutRefSiblings(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const copy = mapSubschemas(node, withoutRefSiblings);
  if (typeof copy.$ref !== "string") return { ...copy };
  return Object.fromEntries(Object.entries(copy).filter(([key]) => keptBesideRef.has(key)));
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
    // A pointer into this document ("#", "#/…"); "#name" is an anchor, not a path.
    if (ref !== "#" && !ref.startsWith("#/")) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const name = part.replaceAll("~1", "/").replaceAll("~0", "~");
      node = isRecord(node) ? node[safelyDecoded(name)] : undefined;
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

/** A pointer token as written in a URI fragment ("%24defs" is "$defs"); one that is no valid escape as it is. */
function safelyDecoded(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}
