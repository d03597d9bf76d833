import { sleep } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";
import type { LimitStore } from "../core/limit-store.js";
import { Slots } from "./slots.js";

export type { LimitBackend } from "./shared-store.js";

export interface ProviderLimitOptions {
  /** The provider (or the model, or the account): calls that share a name share the limit. */
  name: string;
  /** At most this many requests in any minute, across everything that shares the limit. */
  requestsPerMinute?: number | undefined;
  /** The same over another window: at most `requests` in any `perMs` (`requestsPerMinute: 60` is `{ requests: 60, perMs: 60_000 }`). */
  rate?: { requests: number; perMs: number } | undefined;
  /** At most this many requests at once in this process. */
  concurrent?: number | undefined;
  /** Where the turns and the cooldown live; default this process's memory. */
  shared?: LimitBackend | undefined;
}

/**
 * A provider's limit, declared once and shared by every call to it: a request waits for its turn
 * (a slot, the provider's cooldown over, its place in the rate), in the order the calls booked
 * their turns. When the provider says to slow down (429, or 503 with `Retry-After`), `coolDown`
 * closes it for everyone that shares the limit — every run, every process on the same store —
 * until the time it named, so sibling calls do not each hit it and back off on their own.
 */
export interface ProviderLimit {
  readonly name: string;
  /**
   * Waits for a turn; gives back the release of the slot taken (call it when the request is
   * answered). `onWait` hears when the turn will come, if the call has to wait for it.
   */
  turn(signal?: AbortSignal, onWait?: (until: number) => void): Promise<() => void>;
  /** Closes the provider for `ms` for every caller that shares the limit. */
  coolDown(ms: number): Promise<void>;
  /** How long until the provider is open again (0: open now). */
  closedFor(): Promise<number>;
}

/** Makes a provider's limit (see `ProviderLimit`). */
export function providerLimit(options: ProviderLimitOptions): ProviderLimit {
  return new SharedProviderLimit(options);
}

class SharedProviderLimit implements ProviderLimit {
  readonly name: string;
  private readonly key: string;
  /** The time between two turns: at most `requests` in any `perMs` (0: no rate, only the cooldown). */
  private readonly intervalMs: number;
  private readonly slots: Slots | undefined;
  private readonly store: LimitStore;

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
    this.key = `provider:${options.name}`;
    // Turns spaced evenly: a turn every perMs/requests, so no window of perMs ever holds more
    // than `requests` of them, wherever it starts (a fixed window would let two bursts meet).
    this.intervalMs = rate === undefined ? 0 : rate.perMs / rate.requests;
    this.slots = concurrent === undefined ? undefined : new Slots(concurrent);
    this.store = sharedLimitStore(options.shared);
  }

  async turn(signal?: AbortSignal, onWait?: (until: number) => void): Promise<() => void> {
    const release = this.slots === undefined ? () => {} : await this.slots.take(signal);
    try {
      for (let missed = 0; ;) {
        signal?.throwIfAborted();
        const now = Date.now();
        const start = await this.store.book(this.key, this.intervalMs, now);
        if (start > now) {
          onWait?.(start);
          await sleep(start - Date.now(), signal ? { signal } : {});
          // A 429 while this call waited closes the provider again: book a turn after it.
          if ((await this.store.closedUntil(this.key)) > Date.now()) continue;
        }
        // A turn taken more than a turn late (this process was busy, the store slow to answer)
        // would come too close to the turns booked after it: book a later one instead (once; a
        // store slower than a turn would otherwise never let the call go). Less late, it goes:
        // at worst a 429, whose cooldown holds everyone back.
        if (this.intervalMs > 0 && missed < 1 && Date.now() - start > this.intervalMs) {
          missed += 1;
          continue;
        }
        return release;
      }
    } catch (error) {
      release();
      throw error;
    }
  }

  async coolDown(ms: number): Promise<void> {
    await this.store.closeUntil(this.key, Date.now() + Math.max(0, ms));
  }

  async closedFor(): Promise<number> {
    return Math.max(0, (await this.store.closedUntil(this.key)) - Date.now());
  }
}
