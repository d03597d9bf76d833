import { z } from "zod";

/*
 * What a refused request body got wrong, said to the person who sent it: the field, what it
 * should have held, and what the body had. zod's own words ("expected nonoptional") name the
 * rule it applied; a person with a typo needs the key they misspelled and the ones it takes.
 */

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/** The sentence for `issue`, the one a person should read first of `issues`, about `body` read by `schema`. */
export function bodyProblem(options: { schema: z.ZodType; body: unknown; issues: readonly Issue[]; issue: Issue; what: string }): string {
  const { schema, body, issue, what } = options;
  const missing = isMissing(issue);
  // A missing field or an unknown key is about the object that holds it.
  const at = missing ? issue.path.slice(0, -1) : issue.path;
  const where = `${what}${pathText(at)}`;
  const sent = valueAt(body, at);
  if (!missing && issue.code !== "unrecognized_keys") return `${where}: ${issue.message}${gotText(issue, sent)}`;
  // The shapes the body was meant to have: those it comes closest to (the wave of approvals, not the grant).
  const shapes = fitting(shapesAt(schema, at, body), sent);
  const known = unique(shapes.flatMap((shape) => Object.keys(shape.shape)));
  const absent = unique(
    flatten(options.issues)
      .filter((each) => isMissing(each) && samePath(each.path.slice(0, -1), at))
      .map((each) => String(each.path.at(-1)))
      .filter((key) => known.includes(key)),
  );
  const unknown = isObject(sent) ? Object.keys(sent).filter((key) => !known.includes(key)) : [];
  const parts = [
    ...(absent.length > 0 ? [`${absent.map((key) => quote(key)).join(" or ")} is missing`] : []),
    ...unknown.map((key) => `${quote(key)} is not a field here${suggestion(key, known)}`),
  ];
  const expected = shapes.length === 0 ? "" : `; expected ${shapes.map(shapeText).join(" or ")}`;
  return `${where}: ${parts.join(", and ") || issue.message}${expected}, got ${sentText(sent)}`;
}

function isMissing(issue: Issue): boolean {
  return issue.code === "invalid_type" && issue.path.length > 0 && /received undefined/.test(issue.message);
}

/** Every issue, with the issues of each branch of a union brought up with their whole path. */
function flatten(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) =>
    issue.code === "invalid_union"
      ? issue.errors.flatMap((branch) => flatten(branch).map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue))
      : [issue],
  );
}

/** The object schemas the value at `path` is read by (each branch of a union that reaches there). */
function shapesAt(schema: z.ZodType, path: readonly Key[], body: unknown): z.ZodObject[] {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodUnion) return (inner.options as z.ZodType[]).flatMap((option) => shapesAt(option, path, body));
  if (path.length === 0) return inner instanceof z.ZodObject ? [inner] : [];
  const [head, ...rest] = path;
  const value = isObject(body) || Array.isArray(body) ? (body as Record<Key, unknown>)[head!] : undefined;
  if (inner instanceof z.ZodArray && typeof head === "number") return shapesAt(inner.element as z.ZodType, rest, value);
  const field = inner instanceof z.ZodObject ? (inner.shape as Record<Key, z.ZodType>)[head!] : undefined;
  return field === undefined ? [] : shapesAt(field, rest, value);
}

function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return unwrapped(schema.unwrap() as z.ZodType);
  return schema;
}

/** The shapes that fit what was sent: those its keys and literal values agree with, or all of them when none does. */
function fitting(shapes: readonly z.ZodObject[], sent: unknown): z.ZodObject[] {
  if (!isObject(sent)) return [...shapes];
  const fits = shapes.filter((shape) => {
    const fields = shape.shape as Record<string, z.ZodType>;
    const literalsAgree = Object.entries(fields).every(
      ([key, field]) => !(field instanceof z.ZodLiteral) || sent[key] === undefined || field.values.has(sent[key] as never),
    );
    return literalsAgree && Object.keys(sent).some((key) => key in fields);
  });
  return fits.length > 0 ? fits : [...shapes];
}

/** `{ pendingId, action: "approve", reason? }`: the keys, the optional ones marked, a literal's value shown. */
function shapeText(shape: z.ZodObject): string {
  const fields = Object.entries(shape.shape as Record<string, z.ZodType>).map(([key, field]) => {
    if (field instanceof z.ZodLiteral) return `${key}: ${[...field.values].map((value) => JSON.stringify(value)).join(" | ")}`;
    return field._zod.optin === "optional" || field instanceof z.ZodDefault ? `${key}?` : key;
  });
  return `{ ${fields.join(", ")} }`;
}

function sentText(sent: unknown): string {
  if (isObject(sent)) return Object.keys(sent).length === 0 ? "{}" : `{ ${Object.keys(sent).join(", ")} }`;
  return Array.isArray(sent) ? "an array" : sent === undefined ? "nothing" : valueText(sent);
}

/** For a value of the wrong kind, what it was (zod names its type, not the value). */
function gotText(issue: Issue, sent: unknown): string {
  if (issue.code === "invalid_type" || sent === undefined || isObject(sent) || Array.isArray(sent)) return "";
  return `, got ${valueText(sent)}`;
}

function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** ` (did you mean "plan"?)` for a key a letter or two off one the object takes, or off only in case. */
function suggestion(key: string, known: readonly string[]): string {
  const close = known.find((each) => each.toLowerCase() === key.toLowerCase()) ?? known.find((each) => distance(each, key) <= 2);
  return close === undefined ? "" : ` (did you mean ${quote(close)}?)`;
}

/** Edit distance, with two letters swapped counted as one edit ("tsak" is one off "task"). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

function valueAt(body: unknown, path: readonly Key[]): unknown {
  let value = body;
  for (const key of path) value = isObject(value) || Array.isArray(value) ? (value as Record<Key, unknown>)[key] : undefined;
  return value;
}

export function pathText(path: readonly Key[]): string {
  return path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
}

const samePath = (a: readonly Key[], b: readonly Key[]) => a.length === b.length && a.every((key, index) => key === b[index]);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const quote = (key: Key) => JSON.stringify(String(key));
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
