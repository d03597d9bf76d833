import { isRecord } from "../core/is-record.js";
import { checkSecret, sameSecretText, signValue } from "../trust/keyed-hash.js";

/**
 * Jobs and results authenticated with a secret the coordinator and its workers share (the
 * queue is a trust boundary: anyone who can write to Redis can add a job or an event). The
 * coordinator signs each job it adds; a worker runs only a job whose signature is right, and
 * signs what it sends back, bound to the job's id; the coordinator takes only a result whose
 * signature is right.
 */
export function checkQueueSecret(secret: unknown): string | undefined {
  checkSecret(secret, "secret");
  return secret;
}

const mac = (secret: string, what: string, value: unknown) => signValue(secret, `planloop/${what}\n`, value);

/** The job with its signature, when there is a secret. */
export function signJob<Job extends object>(job: Job, secret: string | undefined): Job {
  return secret === undefined ? job : { ...job, signature: mac(secret, "job", job) };
}

/** The job without its signature, when the signature is right (or there is no secret); else undefined. */
export function verifiedJob<Job extends object>(data: unknown, secret: string | undefined): Job | undefined {
  if (!isRecord(data)) return undefined;
  if (secret === undefined) return data as Job;
  const { signature, ...job } = data;
  return sameSecretText(signature, mac(secret, "job", job)) ? (job as Job) : undefined;
}

/** What a worker sends back for a job: the result, signed with the job's id when there is a secret. */
export function signResult(jobId: string, result: unknown, secret: string | undefined): unknown {
  return secret === undefined ? result : { result, signature: mac(secret, "result", { jobId, result }) };
}

/** The result a job sent back, when its signature is right (or there is no secret); else undefined. */
export function verifiedResult(jobId: string, value: unknown, secret: string | undefined): { result: unknown } | undefined {
  if (secret === undefined) return { result: value };
  if (!isRecord(value)) return undefined;
  return sameSecretText(value.signature, mac(secret, "result", { jobId, result: value.result })) ? { result: value.result } : undefined;
}
