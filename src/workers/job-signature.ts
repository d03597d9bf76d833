import { isRecord } from "../core/is-record.js";
import { checkSecret, sameSecretText, signValue } from "../trust/keyed-hash.js";

/**
 * Jobs and results authenticated with a secret the coordinator and its workers share (the
 * queue is a trust boundary: anyone who can write to Redis can add a job or an event). The
 * coordinator signs each job it adds, bound to its id and a time; a worker runs only a job whose
 * signature is right and not past, and signs what it sends back, bound to the job's id; the
 * coordinator takes only a result whose signature is right.
 */
export function checkQueueSecret(secret: unknown): string | undefined {
  checkSecret(secret, "secret");
  return secret;
}

const mac = (secret: string, what: string, value: unknown) => signValue(secret, `planloop/${what}\n`, value);

/** How long a signed job may wait for a worker (ms): a day, as long as Redis keeps a result nobody read. */
export const signedJobLifetimeMs = 86_400_000;

/**
 * The job with its signature, when there is a secret: bound to the job's id (a copy under
 * another id is refused) and to a time after which no worker runs it (`signedUntil`). The
 * run's incarnation and owner's lease token are fields of the job, so signed with it too.
 */
export function signJob<Job extends object>(job: Job, secret: string | undefined, jobId: string, now: number = Date.now()): Job {
  if (secret === undefined) return job;
  const signed = { ...job, signedUntil: now + signedJobLifetimeMs };
  return { ...signed, signature: mac(secret, "job", { jobId, job: signed }) };
}

/**
 * The job without its signature when the signature is right for this job id (or there is no
 * secret); `expired` when it is right but its time is past; else undefined.
 */
export function verifiedJob<Job extends object>(
  data: unknown,
  secret: string | undefined,
  jobId: string,
  now: number = Date.now(),
): Job | "expired" | undefined {
  if (!isRecord(data)) return undefined;
  if (secret === undefined) return data as Job;
  const { signature, ...job } = data;
  if (!sameSecretText(signature, mac(secret, "job", { jobId, job }))) return undefined;
  if (typeof job.signedUntil !== "number" || now > job.signedUntil) return "expired";
  const { signedUntil: _until, ...fields } = job;
  return fields as Job;
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
