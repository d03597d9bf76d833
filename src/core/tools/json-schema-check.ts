import { z } from "zod";
import { isRecord } from "../is-record.js";
import { describeIssueList } from "./issue-list.js";
import type { InputCheck } from "./input-check.js";

/**
 * A check of arguments against a plain JSON Schema (a tool's `input`, every MCP tool's): the
 * arguments are checked, never changed. zod's reader of JSON Schema fills in `default` values
 * and lets through values an `enum` lists against the property's own `type`, so it reads a copy
 * without the annotations and with each enum held to its type; the value that passes is the
 * one the model wrote. A schema that cannot be checked (a `$ref` cycle, a keyword zod cannot
 * read) throws here, at definition, with the reason.
 */
export function jsonSchemaCheck(schema: Record<string, unknown>): (value: unknown) => InputCheck {
  const cycle = refCycle(schema);
  if (cycle !== undefined) throw new Error(`its $ref chain ${cycle.join(" → ")} never reaches a schema`);
  const checked = z.fromJSONSchema(checkable(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  return (value) => {
    let parsed: ReturnType<typeof checked.safeParse>;
    try {
      parsed = checked.safeParse(value);
    } catch (error) {
      // A schema deeper than the checker can follow: the call fails, the run goes on.
      return { ok: false, problems: `the arguments could not be checked against the tool's schema (${(error as Error).message})` };
    }
    return parsed.success ? { ok: true, value } : { ok: false, problems: describeIssueList(parsed.error.issues) };
  };
}

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas. */
const oneSchema = ["additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems"];
const schemaLists = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const schemaMaps = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** A copy of `schema` with no `default` and every `enum` held to the node's `type`. */
function checkable(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "default") continue;
    if (schemaMaps.includes(key) && isRecord(value))
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, checkable(sub)]));
    else if (schemaLists.includes(key) && Array.isArray(value)) copy[key] = value.map(checkable);
    else if (oneSchema.includes(key)) copy[key] = checkable(value);
    else copy[key] = value;
  }
  if (Array.isArray(copy.enum) && copy.type !== undefined) {
    const types = (Array.isArray(copy.type) ? copy.type : [copy.type]).filter((type): type is string => typeof type === "string");
    if (!copy.enum.every((member) => types.some((type) => isOfType(member, type)))) {
      // An enum that lists values of another type: a value must be of the type and listed.
      const { type, enum: members, ...rest } = copy;
      return { ...rest, allOf: [{ type }, { enum: members }] };
    }
  }
  return copy;
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
    case "boolean":
      return typeof value === type;
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return true;
  }
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
