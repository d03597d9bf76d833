import { InvalidOptionsError } from "../errors.js";

/** A zod 3 schema as its `_def` describes it (zod 3 is not a dependency: only the shape is read). */
interface Def {
  typeName: string;
  description?: string;
  [key: string]: unknown;
}

type Schema = { _def: Def; shape?: Record<string, { _def: Def }> };

/**
 * The JSON Schema of a zod 3 schema, for the model: objects, strings, numbers (integers),
 * booleans, arrays, enums, literals, optional, nullable, default, unions, records, any and
 * unknown, and refinements by their inner type. Another kind is an error that names it and
 * says to pass `inputSchema`.
 */
export function zodThreeJsonSchema(schema: unknown, where: string): Record<string, unknown> {
  const converted = convert(schema as Schema, where);
  if (converted.type !== "object")
    throw new InvalidOptionsError(`${where}: input must describe an object of arguments (z.object({...})), not ${String(converted.type)}`);
  return converted;
}

function convert(schema: Schema, where: string): Record<string, unknown> {
  const def = schema._def;
  const described = (json: Record<string, unknown>) => (def.description ? { ...json, description: def.description } : json);
  const inner = (key: string) => convert(def[key] as Schema, where);
  switch (def.typeName) {
    case "ZodObject": {
      const shape = typeof def.shape === "function" ? (def.shape as () => Record<string, Schema>)() : {};
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        properties[key] = convert(value, where);
        if (!["ZodOptional", "ZodDefault"].includes(value._def.typeName)) required.push(key);
      }
      const strict = def.unknownKeys === "strict" ? { additionalProperties: false } : {};
      return described({ type: "object", properties, ...(required.length > 0 ? { required } : {}), ...strict });
    }
    case "ZodString":
      return described({ type: "string" });
    case "ZodNumber": {
      const checks = (def.checks as Array<{ kind: string }> | undefined) ?? [];
      return described({ type: checks.some((check) => check.kind === "int") ? "integer" : "number" });
    }
    case "ZodBoolean":
      return described({ type: "boolean" });
    case "ZodArray":
      return described({ type: "array", items: inner("type") });
    case "ZodEnum":
      return described({ type: "string", enum: def.values as string[] });
    case "ZodLiteral":
      return described({ const: def.value });
    case "ZodOptional":
      return described(inner("innerType"));
    case "ZodNullable":
      return described({ anyOf: [inner("innerType"), { type: "null" }] });
    case "ZodDefault":
      return described({ ...inner("innerType"), default: (def.defaultValue as () => unknown)() });
    case "ZodUnion":
      return described({ anyOf: (def.options as Schema[]).map((option) => convert(option, where)) });
    case "ZodRecord":
      return described({ type: "object", additionalProperties: inner("valueType") });
    case "ZodEffects":
      return described(inner("schema"));
    case "ZodAny":
    case "ZodUnknown":
      return described({});
    default:
      throw new InvalidOptionsError(
        `${where}: the zod 3 type ${def.typeName} has no JSON Schema here; pass inputSchema (the JSON Schema the model should see)`,
      );
  }
}
