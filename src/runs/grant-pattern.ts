import { InvalidOptionsError } from "../core/errors.js";
import { maxNesting, nestsDeeperThan } from "../core/json-safe.js";
import { defaultSecretKeys, isSecretKey } from "../trust/secrets.js";

/*
 * A standing grant's `args` pattern: the arguments a call must have for the grant to approve it.
 * Patterns and arguments are JSON and compared as JSON, on own keys only, so `__proto__` or
 * `constructor` in a pattern is an argument like any other, never a way to an empty pattern
 * that approves every call.
 */

/** A grant that cannot be kept as given; `field` is the part of the grant it is about. */
export class GrantError extends InvalidOptionsError {
  constructor(
    message: string,
    readonly field: string = "grant",
  ) {
    super(message);
    this.name = "GrantError";
  }
}

/**
 * The pattern as it will be kept: a copy of the JSON object given, every object in it without a
 * prototype, every key kept. Anything else (an array, a value JSON cannot hold) is refused.
 */
export function grantPattern(given: unknown): Record<string, unknown> {
  if (!isJsonObject(given)) throw new GrantError("grant.args: an object of the argument values a call must have", "grant.args");
  if (nestsDeeperThan(given, maxNesting)) throw new GrantError(`grant.args: nests deeper than ${maxNesting} levels`, "grant.args");
  return copied(given, "grant.args") as Record<string, unknown>;
}

/**
 * Whether a call's arguments hold the pattern: the arguments are an object (never an array), and
 * each key the pattern names is an own key of theirs with the same JSON value. No pattern: any call.
 *
 * @example
 * argumentsMatch({ amount: 10 }, { amount: 10, order: "A1" }); // true
 * argumentsMatch({ amount: 10 }, { amount: "10" });            // false
 */
export function argumentsMatch(pattern: Readonly<Record<string, unknown>> | undefined, args: unknown): boolean {
  if (pattern === undefined) return true;
  if (!isJsonObject(args)) return false;
  return Object.keys(pattern).every((key) => Object.hasOwn(args, key) && sameJson(pattern[key], args[key]));
}

/** JSON equality: the same type and value (1 is 1.0, "1" is not 1, an object is never an array), objects by their own keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || typeof a !== "object") return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (!isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key as keyof typeof a], b[key]));
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function copied(value: unknown, where: string): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item, index) => copied(item, `${where}[${index}]`));
  if (isJsonObject(value)) {
    const copy = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      // The store keeps a secret key's value masked or sealed, never as given: a pattern naming one could never match.
      if (isSecretKey(key, defaultSecretKeys))
        throw new GrantError(
          `${where}.${key}: "${key}" is a secret key, whose value the store never keeps readable, so no call would match; grant on the call's other arguments`,
          `${where}.${key}`,
        );
      copy[key] = copied(value[key], `${where}.${key}`);
    }
    return copy;
  }
  throw new GrantError(`${where}: not a JSON value (${typeof value}); a grant's arguments are JSON`, "grant.args");
}
