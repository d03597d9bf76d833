import { resolve } from "node:path";
import type * as IORedis from "ioredis";
import type Pg from "pg";
import { loadOptionalPackage } from "../core/optional-package.js";
import { providerLimit, type LimitBackend, type ProviderLimit } from "../limits/provider-limit.js";
import { sqliteLimitStore } from "../stores/sqlite/sqlite-limit-store.js";
import { CliError } from "./cli-error.js";

export interface LimitFlags {
  requestsPerMinute?: string;
  tokensPerMinute?: string;
  concurrentRequests?: string;
  /** Where the limit lives across processes: sqlite:<path>, postgres://… or redis://… */
  limitsShared?: string;
  /** Tenants' shares of the turns, `<tenant>=<weight>` each (`planloop serve --tenant-weight`). */
  tenantWeight?: string[];
}

/** Whether the flags declare a provider limit at all. */
export function declaresLimit(flags: LimitFlags): boolean {
  return (
    flags.requestsPerMinute !== undefined ||
    flags.tokensPerMinute !== undefined ||
    flags.concurrentRequests !== undefined ||
    flags.limitsShared !== undefined ||
    flags.tenantWeight !== undefined
  );
}

/**
 * The provider limit the flags declare for the model `name` (`--requests-per-minute`,
 * `--tokens-per-minute`, `--concurrent-requests`, shared through `--limits-shared`), or undefined without them.
 */
export function limitFromFlags(flags: LimitFlags, name: string): ProviderLimit | undefined {
  if (!declaresLimit(flags)) return undefined;
  const requestsPerMinute = wholeNumber("--requests-per-minute", flags.requestsPerMinute);
  const tokensPerMinute = wholeNumber("--tokens-per-minute", flags.tokensPerMinute);
  const concurrent = wholeNumber("--concurrent-requests", flags.concurrentRequests);
  return providerLimit({
    name,
    ...(requestsPerMinute === undefined ? {} : { requestsPerMinute }),
    ...(tokensPerMinute === undefined ? {} : { tokensPerMinute }),
    ...(concurrent === undefined ? {} : { concurrent }),
    ...(flags.limitsShared === undefined ? {} : { shared: sharedFrom(flags.limitsShared) }),
    ...(flags.tenantWeight === undefined ? {} : { tenantWeights: tenantWeightsFrom(flags.tenantWeight) }),
  });
}

/** `--tenant-weight client:acme=2 schedule:nightly=0.5`: each tenant's weight (a tenant's name may hold "="; the last one splits). */
function tenantWeightsFrom(given: readonly string[]): Record<string, number> {
  const weights: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const pair of given) {
    const at = pair.lastIndexOf("=");
    const weight = Number(pair.slice(at + 1));
    if (at <= 0 || !/^\d+(\.\d+)?$/.test(pair.slice(at + 1)) || !(weight > 0))
      throw new CliError(`--tenant-weight takes <tenant>=<weight> (a number > 0), not ${JSON.stringify(pair)}`);
    weights[pair.slice(0, at)] = weight;
  }
  return weights;
}

/**
 * The limit flags again, for the launch line a run is continued with: a SQLite file by its
 * absolute path (the run may be continued from another folder).
 */
export function limitArguments(flags: LimitFlags): string[] {
  const shared = flags.limitsShared;
  return [
    ...(flags.requestsPerMinute === undefined ? [] : ["--requests-per-minute", flags.requestsPerMinute]),
    ...(flags.tokensPerMinute === undefined ? [] : ["--tokens-per-minute", flags.tokensPerMinute]),
    ...(flags.concurrentRequests === undefined ? [] : ["--concurrent-requests", flags.concurrentRequests]),
    ...(shared === undefined ? [] : ["--limits-shared", shared.startsWith("sqlite:") ? `sqlite:${resolve(shared.slice(7))}` : shared]),
  ];
}

/** The limit flags that take a number, and the form each must have (as `limitFromFlags` reads it). */
export const limitNumberFlags: readonly string[] = ["--requests-per-minute", "--tokens-per-minute", "--concurrent-requests"];
export const wholeNumberPattern = /^[1-9]\d{0,8}$/;
/** What `--limits-shared` may name: a SQLite file, a Postgres or a Redis URL. */
export const limitsSharedPattern = /^(sqlite:.+|postgres(ql)?:\/\/.+|rediss?:\/\/.+)$/;

function wholeNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!wholeNumberPattern.test(value)) throw new CliError(`${flag} must be a whole number >= 1, not ${JSON.stringify(value)}`);
  return Number(value);
}

function sharedFrom(where: string): LimitBackend {
  if (where.startsWith("sqlite:")) {
    const path = where.slice("sqlite:".length);
    if (path === "") throw new CliError("--limits-shared sqlite: needs a file: sqlite:<path>");
    return sqliteLimitStore({ path });
  }
  if (/^postgres(ql)?:\/\//.test(where)) {
    const pg = loadOptionalPackage<typeof Pg>({ name: "pg", neededFor: "--limits-shared postgres://…", install: "pg@8" });
    // Idle connections do not keep the command running once its run is done.
    const pool = new pg.Pool({ connectionString: where, max: 4, allowExitOnIdle: true });
    pool.on("error", () => {});
    return { postgres: pool };
  }
  if (/^rediss?:\/\//.test(where)) {
    const { Redis } = loadOptionalPackage<typeof IORedis>({
      name: "ioredis",
      neededFor: "--limits-shared redis://…",
      install: "ioredis@6",
    });
    return { redis: idleUnref(new Redis(where, { maxRetriesPerRequest: 3 })) };
  }
  throw new CliError(`--limits-shared: write sqlite:<path>, postgres://… or redis://…, not ${JSON.stringify(where)}`);
}

/**
 * The part of an ioredis client the limit store uses (`eval`), whose connection keeps the command
 * running only while a call is in flight, as a pg pool's idle connections do not: a command
 * whose run is done exits without closing it.
 */
function idleUnref(redis: IORedis.Redis): { eval: IORedis.Redis["eval"] } {
  const socket = () => (redis as unknown as { stream?: { ref?: () => void; unref?: () => void } }).stream;
  let inFlight = 0;
  redis.on("error", () => {});
  redis.on("connect", () => {
    if (inFlight === 0) socket()?.unref?.();
  });
  const evaluate = (async (...args: Parameters<IORedis.Redis["eval"]>) => {
    inFlight += 1;
    socket()?.ref?.();
    try {
      return await redis.eval(...args);
    } finally {
      if ((inFlight -= 1) === 0) socket()?.unref?.();
    }
  }) as IORedis.Redis["eval"];
  return { eval: evaluate };
}
