/**
 * Values that a run records (tool outputs) and values a model sends (tool arguments) must
 * survive `JSON.stringify`: a saved state is JSON. These helpers keep them so without
 * recursion deep enough to overflow the stack.
 */

/** How deep tool arguments and recorded outputs may nest; deeper parts are refused or replaced. */
export const maxNesting = 64;

/** What stands in for a value nested deeper than `maxNesting` levels. */
export const nestedTooDeep = "[nested too deep]";

/** Whether objects and arrays in `value` nest deeper than `limit` levels. No recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit >= 1 && holdsNoObject(value)) return false;
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > limit) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const child of Object.values(current)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * `value` as JSON will keep it. A value that is already plain JSON data is returned as it is
 * (no copy); otherwise a copy where what JSON would lose or reject is replaced by a marker
 * string: a BigInt by `"123n"`, a cycle by `"[Circular]"`, a `Map` by its entries under
 * `"[Map]"`, a `Set` by its values, parts nested deeper than `maxNesting` by
 * ``nestedTooDeep`. Functions and symbols are left out, as JSON leaves them.
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return typeof value === "bigint" ? `${value}n` : value;
  // The usual tool output, a flat record or list of plain values, is checked without allocating.
  const prototype = Object.getPrototypeOf(value);
  const plainShape = Array.isArray(value) || prototype === Object.prototype || prototype === null;
  if (plainShape && holdsNoObject(value) && !holdsBigInt(value)) return value;
  return isPlainData(value) ? value : copy(value, new Set(), 1);
}

function holdsNoObject(value: object): boolean {
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null) return false;
  }
  return true;
}

function holdsBigInt(value: object): boolean {
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] === "bigint") return true;
  return false;
}

/** True when every object in `value` is a plain object or array of JSON values, shallower than the limit. */
function isPlainData(value: object): boolean {
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  // An object met twice is a cycle or shared; either way `copy` decides (plain data rarely shares).
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > maxNesting || seen.has(current)) return false;
    const prototype = Object.getPrototypeOf(current);
    if (!Array.isArray(current) && prototype !== Object.prototype && prototype !== null) return false;
    seen.add(current);
    for (const child of Object.values(current)) {
      if (typeof child === "bigint") return false;
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return true;
}

function copy(value: unknown, ancestors: Set<object>, depth: number): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) return "[Circular]";
  if (depth > maxNesting) return nestedTooDeep;
  ancestors.add(value);
  let result: unknown;
  if (Array.isArray(value)) result = value.map((item) => copy(item, ancestors, depth + 1));
  else if (value instanceof Map) result = { "[Map]": [...value].map((entry) => copy(entry, ancestors, depth + 1)) };
  else if (value instanceof Set) result = [...value].map((item) => copy(item, ancestors, depth + 1));
  else if (typeof (value as { toJSON?: unknown }).toJSON === "function")
    result = copy((value as { toJSON(): unknown }).toJSON(), ancestors, depth);
  else {
    const record: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "function" || typeof item === "symbol" || item === undefined) continue;
      Object.defineProperty(record, key, { value: copy(item, ancestors, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    result = record;
  }
  ancestors.delete(value);
  return result;
}
