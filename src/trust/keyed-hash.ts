import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import { InvalidOptionsError } from "../core/errors.js";

/**
 * The one keyed hash planloop signs with (HMAC-SHA256): a value's canonical JSON after a
 * `label` that says what is signed, so a signature made for one purpose (a job, a result, a
 * journal entry) never passes for another. Saved states, the journal's chain and BullMQ's jobs
 * and results are all signed with it.
 */
export function signValue(key: string | Buffer, label: string, value: unknown, encoding: "hex" | "base64url" = "base64url"): string {
  return createHmac("sha256", key).update(label).update(canonicalJson(value)).digest(encoding);
}

/** A key of its own for `purpose`, derived from a secret: the secret itself signs nothing. */
export function derivedKey(secret: string, purpose: string): Buffer {
  return createHmac("sha256", secret).update(purpose).digest();
}

/** Whether `given` is `expected`, compared in constant time (a signature, a token). */
export function sameSecretText(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A secret to sign with: a string of at least 16 characters (`name` is the option that gave it). */
export function checkSecret(secret: unknown, name = "stateSecret"): asserts secret is string | undefined {
  if (secret !== undefined && (typeof secret !== "string" || secret.length < 16)) {
    throw new InvalidOptionsError(`${name} must be a string of at least 16 characters`);
  }
}
