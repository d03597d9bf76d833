import type * as BullMQ from "bullmq";
import type * as IORedis from "ioredis";
import { InvalidOptionsError } from "../core/errors.js";
import { loadOptionalPackage } from "../core/optional-package.js";

/** Redis for BullMQ: a `redis://` URL, or BullMQ's connection options (host, port, …). */
export type RedisConnection = string | BullMQ.ConnectionOptions;

export function loadBullmq(): typeof BullMQ {
  return loadOptionalPackage<typeof BullMQ>({ name: "bullmq", neededFor: "planloop/bullmq", install: "bullmq@6 ioredis@6" });
}

/** A Redis client of its own (for the cancellation channel), on the same server as BullMQ's. */
export function redisClient(connection: BullMQ.ConnectionOptions): IORedis.Redis {
  const { Redis } = loadOptionalPackage<typeof IORedis>({ name: "ioredis", neededFor: "planloop/bullmq", install: "ioredis@6" });
  const client = new Redis({ ...(connection as object), maxRetriesPerRequest: null } as never);
  client.on("error", () => {}); // reconnects on its own; a publish that fails is a cancellation the deadline still covers
  return client;
}

/** BullMQ's connection options for a URL (BullMQ's own options pass as they are). */
export function connectionOf(connection: RedisConnection): BullMQ.ConnectionOptions {
  if (typeof connection !== "string") {
    if (typeof connection !== "object" || connection === null)
      throw new InvalidOptionsError("connection must be a redis:// URL or BullMQ connection options");
    return connection;
  }
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    throw new InvalidOptionsError(`connection must be a redis:// URL, got "${connection}"`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    throw new InvalidOptionsError(`connection must be a redis:// URL, got "${connection}"`);
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined;
  return {
    host: url.hostname,
    port: url.port === "" ? 6379 : Number(url.port),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
    // Workers block on Redis; BullMQ needs requests that wait for a reconnect rather than fail.
    maxRetriesPerRequest: null,
  } as BullMQ.ConnectionOptions;
}

/** The Redis channel an agent step's inner events come back on, from the worker running its job. */
export function eventsChannel(queue: string, jobId: string): string {
  return `planloop:${queue}:events:${jobId}`;
}

/** The Redis channel a run's cancellations go out on, for the workers of `queue`. */
export function cancelChannel(queue: string): string {
  return `planloop:${queue}:cancel`;
}

/**
 * One job per run (and incarnation), step, attempt and exact call: the same id after a crash,
 * so adding it again is a no-op; another call on the same step, or a new run of the same id
 * without a store, is another job.
 */
export function jobIdOf(job: {
  kind: string;
  runId: string;
  stepKey: string;
  attempt: number;
  digest?: string | undefined;
  incarnation?: string | undefined;
}): string {
  const parts = [job.kind, job.runId, job.stepKey, String(job.attempt), job.digest ?? "", job.incarnation ?? ""];
  return parts.map(encodeURIComponent).join("/");
}

/**
 * Which run a job is of, as workers know ended runs: its id with its incarnation (a run
 * without a store) or its owner's lease token (a durable run continued later is another owner).
 */
export function runOf(job: { runId: string; incarnation?: string | undefined; owner?: number | undefined }): string {
  return `${job.runId}#${job.incarnation ?? `owner-${job.owner ?? 0}`}`;
}

const endedPrefix = "run-ended:";

/** What the cancel channel carries when a run is over: its jobs taken from now on are refused. */
export function endedRunMessage(run: string): string {
  return `${endedPrefix}${run}`;
}

/** The run an ended-run message names; undefined for a job id (a job to abort). */
export function endedRunOf(message: string): string | undefined {
  return message.startsWith(endedPrefix) ? message.slice(endedPrefix.length) : undefined;
}
