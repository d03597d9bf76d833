// The Berkeley Function Calling Leaderboard's parallel / multiple cases (../shared/data/bfcl):
// their function schemas, in BFCL's dialect, as plain JSON Schema, and each gold answer as the
// arguments a model would send (the first acceptable value of each parameter).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface BfclFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface BfclCase {
  file: string;
  id: string;
  functions: BfclFunction[];
  /** One call per gold entry, in order: the function's name and the arguments it gets. */
  calls: Array<{ name: string; args: Record<string, unknown> }>;
}

export const bfclFiles = [
  "BFCL_v4_parallel.json",
  "BFCL_v4_multiple.json",
  "BFCL_v4_parallel_multiple.json",
  "BFCL_v4_live_parallel.json",
  "BFCL_v4_live_multiple.json",
  "BFCL_v4_live_parallel_multiple.json",
];

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

export function readBfcl(dir: string): BfclCase[] {
  const cases: BfclCase[] = [];
  for (const file of bfclFiles) {
    const answers = new Map(lines(join(dir, "possible_answer", file)).map((answer) => [answer.id as string, answer]));
    for (const question of lines(join(dir, file))) {
      const answer = answers.get(question.id as string);
      if (answer === undefined) continue;
      const functions = (question.function as BfclFunction[]).map((fn) => ({
        ...fn,
        parameters: toJsonSchema(fn.parameters) as Record<string, unknown>,
      }));
      const calls = (answer.ground_truth as Array<Record<string, Record<string, unknown[]>>>).map((entry) => {
        const [name, params] = Object.entries(entry)[0]!;
        const schema = functions.find((fn) => fn.name === name)?.parameters;
        return { name, args: chosenArgs(params, (schema?.required as string[] | undefined) ?? []) };
      });
      cases.push({ file, id: question.id as string, functions, calls });
    }
  }
  return cases;
}

const dialect: Record<string, string | undefined> = { dict: "object", float: "number", tuple: "array", any: undefined };

/** BFCL's types as JSON Schema's: dict → object, float → number, tuple → array, any → no type. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") {
      const type = value in dialect ? dialect[value] : value;
      if (type !== undefined) copy.type = type;
    } else if (key === "properties" && typeof value === "object" && value !== null) {
      copy.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub)]));
    } else if (key === "items" || key === "additionalProperties") copy[key] = toJsonSchema(value);
    else copy[key] = value;
  }
  return copy;
}

/**
 * Each parameter's first acceptable value; one that may be omitted ("" is acceptable) and that
 * the schema does not require is left out, as a model would leave it.
 */
function chosenArgs(params: Record<string, unknown[]>, required: readonly string[] = []): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, acceptable] of Object.entries(params)) {
    const value = chosen(acceptable, required.includes(name));
    if (value !== omitted) args[name] = value;
  }
  return args;
}

const omitted = Symbol("omitted");

function chosen(acceptable: unknown, required: boolean): unknown {
  if (!Array.isArray(acceptable)) return acceptable;
  if (acceptable.includes("") && !required) return omitted;
  const first = acceptable.find((value) => value !== "");
  return first === undefined ? omitted : concrete(first);
}

/** A dict (also inside a list) lists acceptable values per key, as a call's parameters do. */
function concrete(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(concrete);
  if (typeof value === "object" && value !== null) return chosenArgs(value as Record<string, unknown[]>);
  return value;
}
