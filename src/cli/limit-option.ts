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
  /** The environment variable that holds `limitsShared` (a URL with a password stays out of the process list). */
  limitsSharedEnv?: string;
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
    flags.limitsSharedEnv !== undefined ||
    flags.tenantWeight !== undefined
  );
}

/**
 * The provider limit the flags declare for the model `name` (`--requests-per-minute`,
 * `--tokens-per-minute`, `--concurrent-requests`, shared through `--limits-shared`), or undefined without them.
 */
export function limitFromFlags(flags: LimitFlags, name: string, env: NodeJS.ProcessEnv = process.env): ProviderLimit | undefined {
  if (!declaresLimit(flags)) return undefined;
  const requestsPerMinute = wholeNumber("--requests-per-minute", flags.requestsPerMinute);
  const tokensPerMinute = wholeNumber("--tokens-per-minute", flags.tokensPerMinute);
  const concurrent = wholeNumber("--concurrent-requests", flags.concurrentRequests);
  const shared = limitsSharedPlace(flags, env);
  return providerLimit({
    name,
    ...(requestsPerMinute === undefined ? {} : { requestsPerMinute }),
    ...(tokensPerMinute === undefined ? {} : { tokensPerMinute }),
    ...(concurrent === undefined ? {} : { concurrent }),
    ...(shared === undefined ? {} : { shared: sharedFrom(shared) }),
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
    // The variable's name, never its value: the line is kept in the store and shown in the ui.
    ...(flags.limitsSharedEnv === undefined ? [] : ["--limits-shared-env", flags.limitsSharedEnv]),
  ];
}

/** The limit flags that take a number, and the form each must have (as `limitFromFlags` reads it). */
export const limitNumberFlags: readonly string[] = ["--requests-per-minute", "--tokens-per-minute", "--concurrent-requests"];
export const wholeNumberPattern = /^[1-9]\d{0,8}$/;
/** What `--limits-shared` may name: a SQLite file, a Postgres or a Redis URL. */
export const limitsSharedPattern = /^(sqlite:.+|postgres(ql)?:\/\/.+|rediss?:\/\/.+)$/;

/** What `--limits-shared-env` may name: an environment variable, not one that holds a provider's key. */
export const limitsSharedVariablePattern = /^(?![A-Z0-9_]*_API_KEY$)[A-Z_][A-Z0-9_]*$/;

/** A URL whose user part has a password: `postgres://user:pw@host/db`, `redis://:pw@host`. */
const passwordInUrl = /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]+@/i;
let warnedOfPassword = false;

/**
 * Where the limit is shared: `--limits-shared`, or the variable `--limits-shared-env` names (whose
 * value is read here and never shown or written down). A password on the command line is warned
 * of once: every user of the machine can read a process's command line (`ps`).
 */
export function limitsSharedPlace(flags: LimitFlags, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = flags.limitsSharedEnv;
  if (name === undefined) {
    if (flags.limitsShared !== undefined && passwordInUrl.test(flags.limitsShared) && !warnedOfPassword) {
      warnedOfPassword = true;
      process.stderr.write(
        "planloop: --limits-shared holds a password, which any user of this machine can read in the process list (ps) " +
          "and which a run's launch line keeps in its store: put the URL in a variable and pass --limits-shared-env <NAME>\n",
      );
    }
    return flags.limitsShared;
  }
  if (flags.limitsShared !== undefined) throw new CliError("give --limits-shared or --limits-shared-env, not both");
  if (!limitsSharedVariablePattern.test(name))
    throw new CliError(`--limits-shared-env takes a variable's name (LIMITS_URL), not ${JSON.stringify(name)}`);
  const place = env[name];
  if (place === undefined || place === "") throw new CliError(`--limits-shared-env ${name}: the variable ${name} is not set`);
  // The value may hold a password: it is not shown.
  if (!limitsSharedPattern.test(place))
    throw new CliError(`--limits-shared-env ${name}: ${name} must hold sqlite:<path>, postgres://… or redis://…`);
  return place;
}

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
