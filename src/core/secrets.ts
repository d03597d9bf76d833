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
  if (keys === false || keys.length === 0) return value;
  const matches = (key: string) =>
    keys.some((pattern) => (typeof pattern === "string" ? pattern.toLowerCase() === key.toLowerCase() : pattern.test(key)));
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > 32 || typeof item !== "object" || item === null) return item;
    if (Array.isArray(item)) return item.map((entry) => walk(entry, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item)) copy[key] = matches(key) ? masked : walk(entry, depth + 1);
    return copy;
  };
  return walk(value, 0);
}
