import type { SecretKeys } from "../core/run-settings.js";

/**
 * Argument keys whose values are secrets: masked in events and traces by default. Matched
 * against the whole key, case-insensitive (`apiKey`, `api_key`, `token`, `accessToken`,
 * `password`, `secret`, `clientSecret`, `authorization`, `cookie`, …).
 */
export const defaultSecretKeys: readonly RegExp[] = [
  /^(x[-_]?)?api[-_]?key$/i,
  /^((access|refresh|id|auth|bearer|session)[-_]?)?token$/i,
  /^(password|passwd|passphrase)$/i,
  /^(client[-_]?)?secret$/i,
  /^(authorization|proxy[-_]?authorization|cookie)$/i,
];

export const masked = "[masked]";

/** Which keys to mask (declared with the run settings): the defaults, your own list, or none (`false`). */
export type { SecretKeys } from "../core/run-settings.js";

/** A copy of `value` with the values of secret keys replaced by "[masked]", at any depth. */
export function maskSecrets(value: unknown, keys: SecretKeys = defaultSecretKeys): unknown {
  return replaceSecrets(value, keys, () => masked);
}

/** What each list of keys said of each key seen: results repeat the same few keys many times. */
const verdicts = new WeakMap<ReadonlyArray<string | RegExp>, Map<string, boolean>>();

/** Whether `key` names a secret by `keys`. */
export function isSecretKey(key: string, keys: SecretKeys): boolean {
  if (keys === false) return false;
  let known = verdicts.get(keys);
  if (known === undefined) verdicts.set(keys, (known = new Map()));
  let verdict = known.get(key);
  if (verdict === undefined) {
    verdict = keys.some((pattern) => (typeof pattern === "string" ? pattern.toLowerCase() === key.toLowerCase() : pattern.test(key)));
    // Bounded: a value with ever-new keys (ids as keys) does not grow the cache without end.
    if (known.size < 10_000) known.set(key, verdict);
  }
  return verdict;
}

/**
 * A copy of `value` with the value of every secret key replaced by what `replace` makes of
 * it, at any depth; `value` itself when no key is a secret (nothing is copied then).
 */
export function replaceSecrets(value: unknown, keys: SecretKeys, replace: (secret: unknown, key: string) => unknown): unknown {
  if (keys === false || keys.length === 0) return value;
  return replaceWithin(value, keys, replace, 0);
}

/** The walk of `replaceSecrets`: plain loops, and a copy made only of what changes (results can be large). */
function replaceWithin(item: unknown, keys: SecretKeys, replace: (secret: unknown, key: string) => unknown, depth: number): unknown {
  if (depth > 32 || typeof item !== "object" || item === null) return item;
  if (Array.isArray(item)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < item.length; index++) {
      const entry: unknown = item[index];
      const next = replaceWithin(entry, keys, replace, depth + 1);
      if (next === entry) continue;
      copy ??= item.slice();
      copy[index] = next;
    }
    return copy ?? item;
  }
  let copy: Record<string, unknown> | undefined;
  const record = item as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const entry = record[key];
    const next = isSecretKey(key, keys) ? replace(entry, key) : replaceWithin(entry, keys, replace, depth + 1);
    if (next === entry) continue;
    copy ??= { ...record };
    copy[key] = next;
  }
  return copy ?? item;
}
