/**
 * Records keyed by text that came from a model or a user (step ids, call ids, tool names):
 * objects with no prototype, so `__proto__`, `constructor` or `toString` are keys like any
 * other, and lookups that only see a record's own keys. They go through JSON unchanged.
 */
export type TextKeyed<T> = Record<string, T>;

/** An empty record with no prototype. */
export function textKeyed<T>(): TextKeyed<T> {
  return Object.create(null) as TextKeyed<T>;
}

/** A copy with no prototype of a record from outside (JSON, options), own keys only. */
export function copyTextKeyed<T>(source: Readonly<Record<string, T>> | undefined): TextKeyed<T> {
  const copy = textKeyed<T>();
  if (source === undefined || source === null) return copy;
  for (const key of Object.keys(source)) copy[key] = source[key]!;
  return copy;
}

/** The value a record holds under `key` itself; never one it inherits. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && record !== null && Object.hasOwn(record, key) ? record[key] : undefined;
}
