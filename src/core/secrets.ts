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

/** Which keys to mask: the defaults, your own list (strings match whole keys, any case), or none (`false`). */
export type SecretKeys = ReadonlyArray<string | RegExp> | false;

/** A copy of `value` with the values of secret keys replaced by "[masked]", at any depth. */
export function maskSecrets(value: unknown, keys: SecretKeys = defaultSecretKeys): unknown {
  return replaceSecrets(value, keys, () => masked);
}

/** Whether `key` names a secret by `keys`. */
export function isSecretKey(key: string, keys: SecretKeys): boolean {
  if (keys === false) return false;
  return keys.some((pattern) => (typeof pattern === "string" ? pattern.toLowerCase() === key.toLowerCase() : pattern.test(key)));
}

/**
 * A copy of `value` with the value of every secret key replaced by what `replace` makes of
 * it, at any depth; `value` itself when no key is a secret (nothing is copied then).
 */
export function replaceSecrets(value: unknown, keys: SecretKeys, replace: (secret: unknown, key: string) => unknown): unknown {
  if (keys === false || keys.length === 0) return value;
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > 32 || typeof item !== "object" || item === null) return item;
    if (Array.isArray(item)) {
      const copy = item.map((entry) => walk(entry, depth + 1));
      return copy.some((entry, index) => entry !== item[index]) ? copy : item;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, entry] of Object.entries(item)) {
      const next = isSecretKey(key, keys) ? replace(entry, key) : walk(entry, depth + 1);
      if (next === entry) continue;
      copy ??= { ...(item as Record<string, unknown>) };
      copy[key] = next;
    }
    return copy ?? item;
  };
  return walk(value, 0);
}
