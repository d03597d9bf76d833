import { InvalidOptionsError } from "../core/errors.js";
import { memoryLimitStore, type LimitStore } from "../core/limit-store.js";
import { postgresLimitStore } from "./postgres-limit-store.js";
import { redisLimitStore } from "./redis-limit-store.js";

/** Where a limit's turns, its cooldown and the write keys' holds live: this process, or a store every process shares. */
export type LimitBackend =
  /** A Redis client (ioredis): every process and BullMQ worker on it draws from one bucket. */
  | { redis: unknown }
  /** A Postgres pool (`pg`): every process on the database draws from one bucket (a table of its own, made at first use). */
  | { postgres: unknown; tableName?: string | undefined }
  /** A store made for it, e.g. `sqliteLimitStore({ path })` from `planloop/sqlite` for processes sharing a SQLite file. */
  | LimitStore;

/** The store a backend names; none: a memory of its own (a limit object is shared by passing it around). */
export function sharedLimitStore(shared: LimitBackend | undefined): LimitStore {
  if (shared === undefined) return memoryLimitStore();
  if (typeof shared !== "object" || shared === null)
    throw new InvalidOptionsError("shared must be { redis }, { postgres } or a limit store");
  if ("book" in shared && typeof shared.book === "function") return shared;
  if ("redis" in shared) return redisLimitStore(shared.redis);
  if ("postgres" in shared) return postgresLimitStore(shared.postgres, shared.tableName);
  throw new InvalidOptionsError("shared must be { redis }, { postgres } or a limit store (sqliteLimitStore from planloop/sqlite)");
}
