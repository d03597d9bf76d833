import type { StepId } from "./plan-schema.js";

/**
 * A reference to an earlier step's output: `#E3` (ReWOO), `$3` or `${3}` (LLMCompiler),
 * optionally followed by a path into it: `$3.rows[0].total`, or `${3}["Ask Price"]` for a
 * key that is not an identifier. Digits are taken greedily, so `#E1` never matches inside
 * `#E10`.
 */
const pathPart = String.raw`(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*`;
const placeholderPattern = new RegExp(String.raw`#E(\d+)(${pathPart})|\$(\d+)(${pathPart})|\$\{([A-Za-z0-9_-]+)\}(${pathPart})`, "g");
/** The same grammar, matching only a string that is exactly one placeholder. */
const wholePattern = new RegExp(`^(?:${placeholderPattern.source})$`);
/** The pattern's own copy for `collect`, which scans with `lastIndex` (no iterator per string). */
const scanPattern = new RegExp(placeholderPattern);

/**
 * Which ids name a step of the plan. A bare `$100` that names none is text (a price, "$100"),
 * not a reference; `#E100` and `${100}` are always references.
 */
export interface PlaceholderOptions {
  isStep?: (id: string) => boolean;
  /**
   * The step whose arguments these are. A bare `$2` in step 2's own arguments is text too
   * ("$2 off"): a step cannot use its own output, and LLMCompiler's reader, which knows
   * only the steps written before, reads it so.
   */
  self?: string | undefined;
}

export interface PlaceholderReference {
  /** The step named, as text. */
  step: string;
  /** Property names and array indexes after the placeholder. */
  path: Array<string | number>;
  /** The placeholder as written, e.g. `$3.rows[0]`. */
  text: string;
  /** Why the placeholder cannot be read (a quoted key that is not a JSON string): a plan error. */
  problem?: string;
}

/** A bare `$N` is text when N names no step (the caller says which ids are steps) or the step itself. */
function isText(match: RegExpExecArray | string[], options: PlaceholderOptions): boolean {
  const id = match[3];
  if (id === undefined) return false;
  return id === options.self || (options.isStep !== undefined && !options.isStep(id));
}

function parseMatch(match: RegExpExecArray | string[]): PlaceholderReference {
  const step = (match[1] ?? match[3] ?? match[5])!;
  const rawPath = match[2] ?? match[4] ?? match[6] ?? "";
  const path: Array<string | number> = [];
  if (rawPath === "") return { step, path, text: match[0]! };
  for (const part of rawPath.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    if (part[1] !== undefined) path.push(part[1]);
    else if (part[2] !== undefined) path.push(Number(part[2]));
    else {
      const key = readQuotedKey(part[3]!);
      if (key === undefined)
        return { step, path, text: match[0]!, problem: `${match[0]} has a key that is not a valid JSON string: ${part[3]}` };
      path.push(key);
    }
  }
  return { step, path, text: match[0]! };
}

/** A quoted key as JSON reads it (`"Ask Price"`, `"a\"b"`); undefined for an escape JSON does not know (`"\q"`). */
function readQuotedKey(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/** Every placeholder anywhere in `value` (strings inside objects and arrays included). */
export function findPlaceholders(value: unknown, options: PlaceholderOptions = {}): PlaceholderReference[] {
  const found: PlaceholderReference[] = [];
  collect(value, options, found);
  return found;
}

function collect(value: unknown, options: PlaceholderOptions, found: PlaceholderReference[]): void {
  if (typeof value === "string") {
    if (value.includes("$") || value.includes("#E")) {
      scanPattern.lastIndex = 0;
      for (let match = scanPattern.exec(value); match !== null; match = scanPattern.exec(value)) {
        if (!isText(match, options)) found.push(parseMatch(match));
      }
    }
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) collect(value[index], options, found);
  } else if (typeof value === "object" && value !== null) {
    for (const key in value) if (Object.hasOwn(value, key)) collect((value as Record<string, unknown>)[key], options, found);
  }
}

export type Substitution = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Replaces placeholders in `args` with earlier outputs. A string that is exactly one
 * placeholder becomes the referenced value itself (an object stays an object); a
 * placeholder inside longer text is replaced by the value's text. Inserted text is never
 * scanned again. Pure.
 */
export function substitutePlaceholders(
  args: unknown,
  outputOf: (step: string) => { found: boolean; value?: unknown },
  options: PlaceholderOptions = {},
): Substitution {
  try {
    return { ok: true, value: substitute(args, (text) => substituteText(text, outputOf, options)) };
  } catch (error) {
    if (error instanceof PlaceholderProblem) return { ok: false, error: error.message };
    throw error;
  }
}

class PlaceholderProblem extends Error {}

/** Returns `value` itself when nothing in it changed, so plain arguments are never copied. */
function substitute(value: unknown, text: (value: string) => unknown): unknown {
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => substitute(item, text));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value === "object" && value !== null) {
    let copy: Record<string, unknown> | undefined;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      const replaced = substitute(item, text);
      if (replaced !== item) copy ??= { ...value };
      if (copy) copy[key] = replaced;
    }
    return copy ?? value;
  }
  return value;
}

function substituteText(
  text: string,
  outputOf: (step: string) => { found: boolean; value?: unknown },
  options: PlaceholderOptions,
): unknown {
  if (!text.includes("$") && !text.includes("#E")) return text;
  const whole = wholePattern.exec(text);
  if (whole && !isText(whole, options)) return resolve(parseMatch(whole), outputOf);
  return text.replace(placeholderPattern, (...match: string[]) =>
    isText(match, options) ? match[0]! : asText(resolve(parseMatch(match), outputOf)),
  );
}

function resolve(reference: PlaceholderReference, outputOf: (step: string) => { found: boolean; value?: unknown }): unknown {
  if (reference.problem !== undefined) throw new PlaceholderProblem(reference.problem);
  const output = outputOf(reference.step);
  if (!output.found) throw new PlaceholderProblem(`${reference.text} refers to step ${reference.step}, which has no output`);
  if (reference.path.length === 0) return output.value;
  let current = output.value;
  let walked = reference.text.slice(0, reference.text.length - pathText(reference).length);
  for (const part of reference.path) {
    const next = `${walked}${partText(part)}`;
    if (!hasPart(current, part)) {
      throw new PlaceholderProblem(`${reference.text}: ${next} does not exist (${walked} is ${describe(current)})`);
    }
    current = (current as Record<string | number, unknown>)[part];
    walked = next;
  }
  return current;
}

function pathText(reference: PlaceholderReference): string {
  return reference.path.map(partText).join("");
}

function partText(part: string | number): string {
  if (typeof part === "number") return `[${part}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
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
