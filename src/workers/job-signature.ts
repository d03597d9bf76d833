import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";

/**
 * Jobs and results authenticated with a secret the coordinator and its workers share (the
 * queue is a trust boundary: anyone who can write to Redis can add a job or an event). The
 * coordinator signs each job it adds; a worker runs only a job whose signature is right, and
 * signs what it sends back, bound to the job's id; the coordinator takes only a result whose
 * signature is right.
 */
export function checkQueueSecret(secret: unknown): string | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret !== "string" || secret.length < 16) throw new InvalidOptionsError("secret must be a string of at least 16 characters");
  return secret;
}

const mac = (secret: string, what: string, value: unknown) =>
  createHmac("sha256", secret).update(`planloop/${what}\n`).update(canonicalJson(value)).digest("base64url");

const same = (given: unknown, expected: string) => {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The job with its signature, when there is a secret. */
export function signJob<Job extends object>(job: Job, secret: string | undefined): Job {
  return secret === undefined ? job : { ...job, signature: mac(secret, "job", job) };
}

/** The job without its signature, when the signature is right (or there is no secret); else undefined. */
export function verifiedJob<Job extends object>(data: unknown, secret: string | undefined): Job | undefined {
  if (!isRecord(data)) return undefined;
  if (secret === undefined) return data as Job;
  const { signature, ...job } = data;
  return same(signature, mac(secret, "job", job)) ? (job as Job) : undefined;
}

/** What a worker sends back for a job: the result, signed with the job's id when there is a secret. */
export function signResult(jobId: string, result: unknown, secret: string | undefined): unknown {
  return secret === undefined ? result : { result, signature: mac(secret, "result", { jobId, result }) };
}

/** The result a job sent back, when its signature is right (or there is no secret); else undefined. */
export function verifiedResult(jobId: string, value: unknown, secret: string | undefined): { result: unknown } | undefined {
  if (secret === undefined) return { result: value };
  if (!isRecord(value)) return undefined;
  return same(value.signature, mac(secret, "result", { jobId, result: value.result })) ? { result: value.result } : undefined;
}
