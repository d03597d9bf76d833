/**
 * A resource's name as every store keeps it: lone UTF-16 surrogates (valid in a model's JSON,
 * "\ud800") become U+FFFD, as UTF-8 encoding turns them in Redis and Postgres. A call dedupes and
 * orders its resources by this name, so two names that are one key in a store are one resource
 * in the call: it never holds the first and then waits for itself under the second. (A name
 * that is not a string, from a `resources` written in plain JS, is its text, as a store keeps it.)
 */
export function resourceName(name: string): string {
  return String(name).replace(loneSurrogate, "\ufffd");
}

// With the `u` flag a well-formed pair is one code point: only lone halves match.
const loneSurrogate = /\p{Surrogate}/gu;
