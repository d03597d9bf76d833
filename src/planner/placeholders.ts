import type { StepId } from "./plan-schema.js";

/**
 * A reference to an earlier step's output: `#E3` (ReWOO), `$3` or `${3}` (LLMCompiler),
 * optionally followed by a path into it: `$3.rows[0].total`. Digits are taken greedily, so
 * `#E1` never matches inside `#E10`.
 */
const placeholderPattern =
  /#E(\d+)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)|\$(\d+)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)|\$\{([A-Za-z0-9_-]+)\}((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)/g;
/** The same grammar, matching only a string that is exactly one placeholder. */
const wholePattern = new RegExp(`^(?:${placeholderPattern.source})$`);

export interface PlaceholderReference {
  /** The step named, as text. */
  step: string;
  /** Property names and array indexes after the placeholder. */
  path: Array<string | number>;
  /** The placeholder as written, e.g. `$3.rows[0]`. */
  text: string;
}

function parseMatch(match: RegExpExecArray | string[]): PlaceholderReference {
  const step = (match[1] ?? match[3] ?? match[5])!;
  const rawPath = match[2] ?? match[4] ?? match[6] ?? "";
  const path: Array<string | number> = [];
  for (const part of rawPath.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    path.push(part[1] !== undefined ? part[1] : Number(part[2]));
  }
  return { step, path, text: match[0]! };
}

/** Every placeholder anywhere in `value` (strings inside objects and arrays included). */
export function findPlaceholders(value: unknown, found: PlaceholderReference[] = []): PlaceholderReference[] {
  if (typeof value === "string") {
    if (value.includes("$") || value.includes("#E")) {
      for (const match of value.matchAll(new RegExp(placeholderPattern))) found.push(parseMatch(match));
    }
  } else if (typeof value === "object" && value !== null) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) findPlaceholders(item, found);
  }
  return found;
}

export type Substitution = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Replaces placeholders in `args` with earlier outputs. A string that is exactly one
 * placeholder becomes the referenced value itself (an object stays an object); a
 * placeholder inside longer text is replaced by the value's text. Inserted text is never
 * scanned again. Pure.
 */
export function substitutePlaceholders(args: unknown, outputOf: (step: string) => { found: boolean; value?: unknown }): Substitution {
  try {
    return { ok: true, value: substitute(args, outputOf) };
  } catch (error) {
    if (error instanceof PlaceholderProblem) return { ok: false, error: error.message };
    throw error;
  }
}

class PlaceholderProblem extends Error {}

/** Returns `value` itself when nothing in it changed, so plain arguments are never copied. */
function substitute(value: unknown, outputOf: (step: string) => { found: boolean; value?: unknown }): unknown {
  if (typeof value === "string") return substituteText(value, outputOf);
  if (Array.isArray(value)) {
    const items = value.map((item) => substitute(item, outputOf));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value === "object" && value !== null) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const replaced = substitute(item, outputOf);
      if (replaced !== item) copy ??= { ...value };
      if (copy) copy[key] = replaced;
    }
    return copy ?? value;
  }
  return value;
}

function substituteText(text: string, outputOf: (step: string) => { found: boolean; value?: unknown }): unknown {
  if (!text.includes("$") && !text.includes("#E")) return text;
  const whole = wholePattern.exec(text);
  if (whole) return resolve(parseMatch(whole), outputOf);
  return text.replace(placeholderPattern, (...match: string[]) => asText(resolve(parseMatch(match), outputOf)));
}

function resolve(reference: PlaceholderReference, outputOf: (step: string) => { found: boolean; value?: unknown }): unknown {
  const output = outputOf(reference.step);
  if (!output.found) throw new PlaceholderProblem(`${reference.text} refers to step ${reference.step}, which has no output`);
  let current = output.value;
  let walked = reference.text.slice(0, reference.text.length - pathText(reference).length);
  for (const part of reference.path) {
    const next = typeof part === "number" ? `${walked}[${part}]` : `${walked}.${part}`;
    if (!hasPart(current, part)) {
      throw new PlaceholderProblem(`${reference.text}: ${next} does not exist (${walked} is ${describe(current)})`);
    }
    current = (current as Record<string | number, unknown>)[part];
    walked = next;
  }
  return current;
}

function pathText(reference: PlaceholderReference): string {
  return reference.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("");
}

function hasPart(value: unknown, part: string | number): boolean {
  if (typeof part === "number") return Array.isArray(value) && part < value.length;
  return typeof value === "object" && value !== null && Object.hasOwn(value, part);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return "null";
  if (typeof value === "object") return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

export type { StepId };
