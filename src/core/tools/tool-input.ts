import { z } from "zod";
import type { InputCheck } from "./input-check.js";
import { jsonSchemaCheck } from "./json-schema-check.js";
import { InvalidOptionsError } from "../errors.js";
import { isRecord } from "../is-record.js";
import { zodThreeJsonSchema } from "./zod-three-schema.js";
import { describeIssueList } from "./issue-list.js";

/**
 * A schema by the Standard Schema spec (valibot, arktype, zod 3.24+ and 4, …): declared here
 * by shape, so planloop needs none of those packages.
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): unknown;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** What `validate` returns by the spec (read at run time; libraries type it each their own way). */
type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<unknown> }> };

/** Standard JSON Schema, where a library has it (zod 4, arktype). */
type StandardJsonSchema = { input(options: { target: string }): unknown };

/** A plain JSON Schema for an object of arguments. */
export type JsonSchemaObject = {
  type: "object";
  properties?: Record<string, unknown>;
  required?: readonly string[];
  [keyword: string]: unknown;
};

/** What `input` may be: a zod 4 or zod 3 schema, any Standard Schema, or a JSON Schema object. */
export type ToolInputSchema<Input> = z.ZodType<Input> | StandardSchemaLike<Input> | JsonSchemaObject;

export type { InputCheck } from "./input-check.js";

/** A tool's `input` made usable: the JSON Schema the model sees, and a check of arguments. */
export interface ToolInput {
  jsonSchema: Record<string, unknown>;
  /** Synchronous for zod and most Standard Schemas; a promise where the library validates asynchronously. */
  check(value: unknown): InputCheck | Promise<InputCheck>;
}

const supported =
  'a zod 4 or zod 3 schema, a Standard Schema (valibot, arktype, …; pass inputSchema when the library cannot give a JSON Schema), or a JSON Schema object ({ type: "object", properties })';

/**
 * Reads `input` (and `inputSchema`, the JSON Schema to show the model when the library has
 * no way to give one). An `input` of none of the supported kinds is an error naming them.
 */
export function readToolInput(input: unknown, inputSchema: object | undefined, where: string): ToolInput {
  if (inputSchema !== undefined && !isObjectSchema(inputSchema))
    throw new InvalidOptionsError(`${where}: inputSchema must be a JSON Schema of an object ({ type: "object", properties })`);
  if (input instanceof z.ZodType) {
    return { jsonSchema: inputSchema ?? z.toJSONSchema(input, { io: "input" }), check: (value) => zodCheck(input.safeParse(value)) };
  }
  if (isZodThree(input)) {
    return { jsonSchema: inputSchema ?? zodThreeJsonSchema(input, where), check: (value) => zodCheck(input.safeParse(value)) };
  }
  if (isStandard(input)) {
    const standard = input["~standard"];
    const jsonSchema = inputSchema ?? standardJsonSchema(input, where);
    return { jsonSchema, check: (value) => settle(standard.validate(value) as StandardResult | Promise<StandardResult>) };
  }
  if (isObjectSchema(input)) {
    let check: (value: unknown) => InputCheck;
    try {
      check = jsonSchemaCheck(input);
    } catch (error) {
      throw new InvalidOptionsError(`${where}: input is not a JSON Schema planloop can check: ${(error as Error).message}`);
    }
    return { jsonSchema: inputSchema ?? input, check };
  }
  throw new InvalidOptionsError(`${where}: input must be ${supported}`);
}

function isObjectSchema(value: unknown): value is JsonSchemaObject {
  return isRecord(value) && value.type === "object" && !("~standard" in value) && !("_def" in value);
}

interface ZodThree {
  _def: { typeName: string };
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ZodIssueLike[] } };
}

interface ZodIssueLike {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
}

function isZodThree(value: unknown): value is ZodThree {
  return isRecord(value) && isRecord(value._def) && typeof value._def.typeName === "string" && typeof value.safeParse === "function";
}

function isStandard(value: unknown): value is StandardSchemaLike {
  // Some libraries' schemas are functions (arktype's types can be called).
  const holder = isRecord(value) || typeof value === "function" ? (value as { "~standard"?: unknown }) : undefined;
  const standard = holder?.["~standard"];
  return isRecord(standard) && standard.version === 1 && typeof standard.validate === "function";
}

function standardJsonSchema(input: StandardSchemaLike, where: string): Record<string, unknown> {
  const standard = input["~standard"];
  const jsonSchema = (standard as { jsonSchema?: StandardJsonSchema }).jsonSchema;
  const derived = typeof jsonSchema?.input === "function" ? jsonSchema.input({ target: "draft-2020-12" }) : undefined;
  if (isObjectSchema(derived)) return derived;
  throw new InvalidOptionsError(
    `${where}: this ${standard.vendor} schema cannot give the JSON Schema the model needs; pass it as inputSchema` +
      (standard.vendor === "valibot" ? " (toJsonSchema(schema) from @valibot/to-json-schema)" : ""),
  );
}

function zodCheck(parsed: { success: true; data: unknown } | { success: false; error: { issues: readonly ZodIssueLike[] } }): InputCheck {
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: describeIssueList(parsed.error.issues) };
}

function settle(result: StandardResult | Promise<StandardResult>): InputCheck | Promise<InputCheck> {
  const read = (outcome: StandardResult): InputCheck =>
    outcome.issues ? { ok: false, problems: describeIssueList(outcome.issues) } : { ok: true, value: outcome.value };
  return result instanceof Promise ? result.then(read) : read(result);
}
