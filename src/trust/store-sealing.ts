import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKey, signValue } from "./keyed-hash.js";
import { isRecord } from "../core/is-record.js";

/**
 * The two keys a run's `stateSecret` gives its store: one seals values (AES-256-GCM), one
 * signs the journal (HMAC-SHA256). Derived, so neither is the secret itself.
 */
export interface StoreKeys {
  seal: Buffer;
  sign: Buffer;
}

export function storeKeys(secret: string): StoreKeys {
  return { seal: derivedKey(secret, "planloop/store-seal/v1"), sign: derivedKey(secret, "planloop/journal-signature/v1") };
}

/** How a sealed value is stored: `{ "$sealed": base64(iv, tag, ciphertext) }`. */
export const sealedField = "$sealed";
/** How a secret kept out of the store stands in its place: `{ "$keptOut": "<key>" }`. */
export const keptOutField = "$keptOut";

export function seal(value: unknown, key: Buffer): { [sealedField]: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value ?? null), "utf8"), cipher.final()]);
  return { [sealedField]: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64") };
}

/** The value a box holds; throws when it was not sealed with `key` or was changed since. */
export function unseal(box: string, key: Buffer): unknown {
  const bytes = Buffer.from(box, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  return JSON.parse(text) as unknown;
}

/** The one field of a stand-in (`$sealed` or `$keptOut`), when `value` is one. */
export function standIn(value: unknown): { field: typeof sealedField | typeof keptOutField; text: string } | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const field = keys[0];
  if (field !== sealedField && field !== keptOutField) return undefined;
  const text = value[field];
  return typeof text === "string" ? { field, text } : undefined;
}

/**
 * A copy of `value` with each stand-in replaced by what `open` makes of it (undefined: left
 * as it is); `value` itself when there is none.
 */
export function openStandIns(value: unknown, open: (found: NonNullable<ReturnType<typeof standIn>>) => unknown): unknown {
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > 40 || typeof item !== "object" || item === null) return item;
    const found = standIn(item);
    if (found !== undefined) return open(found) ?? item;
    if (Array.isArray(item)) {
      const copy = item.map((entry) => walk(entry, depth + 1));
      return copy.some((entry, index) => entry !== item[index]) ? copy : item;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, entry] of Object.entries(item)) {
      const next = walk(entry, depth + 1);
      if (next === entry) continue;
      copy ??= { ...(item as Record<string, unknown>) };
      copy[key] = next;
    }
    return copy ?? item;
  };
  return walk(value, 0);
}

/**
 * The signature of a journal entry as stored, chained to the one before it in the same run:
 * an entry changed, removed from the middle, moved, or copied from another run no longer
 * matches. `previous` is "" for a run's first entry.
 */
export function chainSignature(key: Buffer, runId: string, previous: string, stored: unknown): string {
  return signValue(key, `${runId}\n${previous}\n`, stored);
}
