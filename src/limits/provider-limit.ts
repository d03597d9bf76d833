import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sleep } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { Slots } from "./slots.js";

/** Where a limit's count and its cooldown live: this process, or a store every process shares. */
export type LimitBackend =
  /** A Redis client (ioredis): every process and BullMQ worker on it draws from one bucket. */
  | { redis: unknown }
  /** A Postgres pool (`pg`): every process on the database draws from one bucket (a table of its own, made at first use). */
  | { postgres: unknown; tableName?: string | undefined };

export interface ProviderLimitOptions {
  /** The provider (or the model, or the account): calls that share a name share the limit. */
  name: string;
  /** At most this many requests in any minute, across everything that shares the limit. */
  requestsPerMinute?: number | undefined;
  /** The same over another window: at most `requests` in any `perMs` (`requestsPerMinute: 60` is `{ requests: 60, perMs: 60_000 }`). */
  rate?: { requests: number; perMs: number } | undefined;
  /** At most this many requests at once in this process. */
  concurrent?: number | undefined;
  /** Where the count and the cooldown live; default this process's memory. */
  shared?: LimitBackend | undefined;
}

/**
 * A provider's limit, declared once and shared by every call to it: a request waits for its turn
 * (the provider's cooldown over, a request of its per-minute budget, a slot), in the order the
 * calls came in this process. When the provider says to slow down (429, or 503 with
 * `Retry-After`), `coolDown` closes it for everyone that shares the limit — every run, every
 * process on the same Redis or Postgres — until the time it named, so sibling calls do not each
 * hit it and back off on their own.
 */
export interface ProviderLimit {
  readonly name: string;
  /** Waits for a turn; gives back the release of the slot taken (call it when the request is answered). */
  turn(signal?: AbortSignal): Promise<() => void>;
  /** Closes the provider for `ms` for every caller that shares the limit. */
  coolDown(ms: number): Promise<void>;
  /** How long until the provider is open again (0: open now). */
  closedFor(): Promise<number>;
}

/** Makes a provider's limit (see `ProviderLimit`), backed by rate-limiter-flexible. */
export function providerLimit(options: ProviderLimitOptions): ProviderLimit {
  return new SharedProviderLimit(options);
}

/** A count so large no minute reaches it: a limit that only cools down. */
const unlimited = 1_000_000_000;

class SharedProviderLimit implements ProviderLimit {
  readonly name: string;
  private readonly limiter: RateLimiterAbstract;
  private readonly slots: Slots | undefined;
  /** The calls of this process waiting for the count, one behind the other. */
  private line: Promise<unknown> = Promise.resolve();

  constructor(options: ProviderLimitOptions) {
    if (typeof options.name !== "string" || options.name === "") throw new InvalidOptionsError("a provider limit needs a name");
    if (options.requestsPerMinute !== undefined && options.rate !== undefined)
      throw new InvalidOptionsError("give requestsPerMinute or rate, not both");
    const rate =
      options.rate ?? (options.requestsPerMinute === undefined ? undefined : { requests: options.requestsPerMinute, perMs: 60_000 });
    if (rate !== undefined && (!Number.isInteger(rate.requests) || rate.requests < 1 || !Number.isInteger(rate.perMs) || rate.perMs < 100))
      throw new InvalidOptionsError(`a rate is a whole number of requests >= 1 per whole ms >= 100, got ${JSON.stringify(rate)}`);
    const concurrent = options.concurrent;
    if (concurrent !== undefined && (!Number.isInteger(concurrent) || concurrent < 1))
      throw new InvalidOptionsError(`concurrent must be a whole number >= 1, got ${String(concurrent)}`);
    this.name = options.name;
    this.slots = concurrent === undefined ? undefined : new Slots(concurrent);
    const count = {
      points: rate?.requests ?? unlimited,
      duration: (rate?.perMs ?? 60_000) / 1000,
      keyPrefix: "planloop-limit",
      // Spread over the window, not all at its start: no burst where two windows meet.
      execEvenly: rate !== undefined,
    };
    const shared = options.shared;
    if (shared === undefined) this.limiter = new RateLimiterMemory(count);
    else if ("redis" in shared) this.limiter = new RateLimiterRedis({ ...count, storeClient: shared.redis });
    else
      this.limiter = new RateLimiterPostgres({ ...count, storeClient: shared.postgres, tableName: shared.tableName ?? "planloop_limits" });
  }

  async turn(signal?: AbortSignal): Promise<() => void> {
    const release = this.slots === undefined ? () => {} : await this.slots.take(signal);
    try {
      const mine = this.line.then(() => this.count(signal));
      this.line = mine.catch(() => {});
      await mine;
      return release;
    } catch (error) {
      release();
      throw error;
    }
  }

  async coolDown(ms: number): Promise<void> {
    // Whole seconds, as the store keeps a block; never shorter than asked.
    await this.limiter.block(this.name, Math.max(1, Math.ceil(ms / 1000)));
  }

  async closedFor(): Promise<number> {
    const state = await this.limiter.get(this.name);
    return state !== null && state.consumedPoints > this.limiter.points ? state.msBeforeNext : 0;
  }

  /** One request of the count, waiting as long as the store says while it is spent or cooling down. */
  private async count(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      try {
        await this.limiter.consume(this.name, 1);
        return;
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        await sleep(Math.max(1, refused.msBeforeNext), signal ? { signal } : {});
      }
    }
  }
}
