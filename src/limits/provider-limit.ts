import { sleep } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { heldCooldown, longestCooldownMs } from "../core/next-turn.js";
import { sharedLimitStore, type LimitBackend } from "./shared-store.js";
import type { LimitStore } from "../core/limit-store.js";
import { Slots } from "./slots.js";
import { TenantGates } from "./tenant-gates.js";
import { TenantLine } from "./tenant-line.js";

export type { LimitBackend } from "./shared-store.js";

export interface ProviderLimitOptions {
  /** The provider (or the model, or the account): calls that share a name share the limit. */
  name: string;
  /** At most this many requests in any minute, across everything that shares the limit. */
  requestsPerMinute?: number | undefined;
  /** The same over another window: at most `requests` in any `perMs` (`requestsPerMinute: 60` is `{ requests: 60, perMs: 60_000 }`). */
  rate?: { requests: number; perMs: number } | undefined;
  /**
   * At most this many tokens (prompt and answer) in any minute, across everything that shares the
   * limit: each call holds its worst case (prompt estimate plus the model's `maxOutputTokens`)
   * before it goes, and gives back what it did not use once its usage is known.
   */
  tokensPerMinute?: number | undefined;
  /** The same over another window: at most `tokens` in any `perMs` (`tokensPerMinute: 90_000` is `{ tokens: 90_000, perMs: 60_000 }`). */
  tokenRate?: { tokens: number; perMs: number } | undefined;
  /**
   * Tenants' shares of the turns, when calls wait for them (default 1 each): a tenant of weight 2
   * gets two turns for another's one. Only calls that name a tenant take turns by share.
   */
  tenantWeights?: Readonly<Record<string, number>> | undefined;
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
  turn(signal?: AbortSignal, onWait?: (until: number) => void, call?: TurnOptions): Promise<() => void>;
  /**
   * Says what a call that held `held` tokens at its turn really used: the rest is given back to
   * the line (a call that used more pushes the turns booked after it later). No-op without a token rate.
   */
  settleTokens(held: number, used: number): Promise<void>;
  /** Whether the limit counts tokens (`tokensPerMinute`): a caller need estimate a call's tokens only then. */
  readonly countsTokens: boolean;
  /**
   * Closes the provider for `ms` from now (a minute at most) for every caller that shares the
   * limit (a later close already set is kept): the calls waiting and those that come later book
   * their turns after it. For an adapter of your own that reads a provider's "wait this long": `ms`
   * is a finite number >= 0, else an `InvalidOptionsError` (NaN, a negative or Infinity is a time
   * misread, and would switch the rate off or close the limit for good). A minute at most, as
   * planloop's adapters take a provider's time: a cooldown further ahead is how a clock set back
   * is noticed (`heldCooldown`).
   */
  coolDown(ms: number): Promise<void>;
  /** How long until the provider is open again (0: open now). */
  closedFor(): Promise<number>;
}

/** What a call tells its limit when it asks for a turn. */
export interface TurnOptions {
  /** With a token rate: the call's worst case in tokens, held until `settleTokens` says what it used. */
  tokens?: number | undefined;
  /**
   * Whose call it is: the next turn goes to the tenant served least recently for its weight
   * (`tenantWeights`). With a rate, the store applies the rule across every process that shares
   * it (`LimitStore.bookFair`); without, calls that name a tenant book one at a time in this
   * process by it. Calls that name none book as they come.
   */
  tenant?: string | undefined;
}

/** A call booking its turn (`SharedProviderLimit.booked`). */
interface BookedCall {
  signal: AbortSignal | undefined;
  onWait: ((until: number) => void) | undefined;
  /** The tokens it holds (0: none counted). */
  held: number;
  tenant: string | undefined;
  /** Gives back the slot it took. */
  release: () => void;
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
  /** The time a token takes in the line of tokens (0: tokens are not counted). */
  private readonly msPerToken: number;
  private readonly tokensKey: string;
  /** The tokens of one window (`tokenRate.tokens`): the most a call's usage may push the line on by. */
  private readonly windowTokens: number;
  private readonly slots: Slots | undefined;
  private readonly store: LimitStore;
  private readonly line: TenantLine;
  private readonly gates = new TenantGates();
  /** The gate of this process's calls that name no tenant (one asks the store at a time). */
  private readonly plainGate = new Slots(1);
  private readonly weights: ReadonlyMap<string, number>;

  constructor(options: ProviderLimitOptions) {
    if (typeof options.name !== "string" || options.name === "") throw new InvalidOptionsError("a provider limit needs a name");
    if (options.requestsPerMinute !== undefined && options.rate !== undefined)
      throw new InvalidOptionsError("give requestsPerMinute or rate, not both");
    const rate =
      options.rate ?? (options.requestsPerMinute === undefined ? undefined : { requests: options.requestsPerMinute, perMs: 60_000 });
    if (rate !== undefined && (!Number.isInteger(rate.requests) || rate.requests < 1 || !Number.isInteger(rate.perMs) || rate.perMs < 100))
      throw new InvalidOptionsError(`a rate is a whole number of requests >= 1 per whole ms >= 100, got ${JSON.stringify(rate)}`);
    if (options.tokensPerMinute !== undefined && options.tokenRate !== undefined)
      throw new InvalidOptionsError("give tokensPerMinute or tokenRate, not both");
    const tokenRate =
      options.tokenRate ?? (options.tokensPerMinute === undefined ? undefined : { tokens: options.tokensPerMinute, perMs: 60_000 });
    if (
      tokenRate !== undefined &&
      (!Number.isInteger(tokenRate.tokens) || tokenRate.tokens < 1 || !Number.isInteger(tokenRate.perMs) || tokenRate.perMs < 100)
    )
      throw new InvalidOptionsError(`a token rate is a whole number of tokens >= 1 per whole ms >= 100, got ${JSON.stringify(tokenRate)}`);
    const concurrent = options.concurrent;
    if (concurrent !== undefined && (!Number.isInteger(concurrent) || concurrent < 1))
      throw new InvalidOptionsError(`concurrent must be a whole number >= 1, got ${String(concurrent)}`);
    this.name = options.name;
    this.key = `provider:${options.name}`;
    // Turns spaced evenly: a turn every perMs/requests, so no window of perMs ever holds more
    // than `requests` of them, wherever it starts (a fixed window would let two bursts meet).
    this.intervalMs = rate === undefined ? 0 : rate.perMs / rate.requests;
    // Tokens take their time in a line of their own: a call of n tokens moves the next turn on
    // by n tokens' time, so the tokens booked in any window of perMs stay within the rate (give or
    // take the one call that starts it).
    this.msPerToken = tokenRate === undefined ? 0 : tokenRate.perMs / tokenRate.tokens;
    this.tokensKey = `provider-tokens:${options.name}`;
    this.windowTokens = tokenRate === undefined ? 0 : tokenRate.tokens;
    this.slots = concurrent === undefined ? undefined : new Slots(concurrent);
    this.store = sharedLimitStore(options.shared);
    for (const [tenant, weight] of Object.entries(options.tenantWeights ?? {}))
      if (!(typeof weight === "number" && Number.isFinite(weight) && weight > 0))
        throw new InvalidOptionsError(`the weight of tenant ${JSON.stringify(tenant)} must be a number > 0, not ${String(weight)}`);
    this.weights = new Map(Object.entries(options.tenantWeights ?? {}));
    this.line = new TenantLine(this.weights);
  }

  get countsTokens(): boolean {
    return this.msPerToken > 0;
  }

  async turn(signal?: AbortSignal, onWait?: (until: number) => void, call: TurnOptions = {}): Promise<() => void> {
    const { tokens, tenant } = call;
    const held = this.msPerToken > 0 && tokens !== undefined && Number.isFinite(tokens) && tokens > 0 ? tokens : 0;
    // A call takes its place before a slot. With a rate, a process's calls ask the store one at a
    // time (each tenant's next call, or the next plain call): the store books one turn ahead of
    // the last (`bookNext`, `bookFair`), so the rest wait here, where giving up costs nothing.
    // Without a rate, calls that name a tenant book in the order of the tenants' line here.
    const leave =
      this.intervalMs === 0
        ? tenant === undefined
          ? () => {}
          : await this.line.enter(tenant, signal)
        : tenant === undefined
          ? await this.plainGate.take(signal)
          : await this.gates.enter(tenant, signal);
    try {
      const release = this.slots === undefined ? () => {} : await this.slots.take(signal);
      return await this.booked({ signal, onWait, held, tenant, release });
    } finally {
      leave();
    }
  }

  /** Books the call's turn and waits for it (see `turn`). */
  private async booked({ signal, onWait, held, tenant, release }: BookedCall) {
    /** The tokens booked on the line for the turn this call waits for (0: none). */
    let booked = 0;
    try {
      for (let missed = 0; ;) {
        signal?.throwIfAborted();
        const requestStart = await this.requestTurn({ tenant, signal, onWait });
        const now = Date.now();
        // The tokens' turn comes no sooner than the request's (which counts the cooldown).
        const start =
          held === 0
            ? requestStart
            : await this.store.book(this.tokensKey, { intervalMs: held * this.msPerToken, now, notBefore: requestStart });
        booked = held;
        if (start > now) {
          onWait?.(start);
          await sleep(start - Date.now(), signal ? { signal } : {});
          // A 429 while this call waited closes the provider again: book a turn after it.
          if (heldCooldown(await this.store.closedUntil(this.key), Date.now()) > Date.now()) {
            booked = 0;
            await this.settleTokens(held, 0);
            continue;
          }
        }
        // A turn taken more than a turn late (this process was busy, the store slow to answer)
        // would come too close to the turns booked after it: book a later one instead (once; a
        // store slower than a turn would otherwise never let the call go). Less late, it goes:
        // at worst a 429, whose cooldown holds everyone back.
        if (this.intervalMs > 0 && missed < 1 && Date.now() - start > this.intervalMs) {
          missed += 1;
          booked = 0;
          await this.settleTokens(held, 0);
          continue;
        }
        return release;
      }
    } catch (error) {
      release();
      // Given up before its turn came (cancelled, the store failing): nothing was sent, so its
      // tokens go back to the line for the calls that book after it.
      if (booked > 0) await this.settleTokens(booked, 0).catch(() => {});
      throw error;
    }
  }

  /**
   * Books the request's turn, one turn ahead of the last at most: until the turn booked before has
   * come, the store says when to ask again (`LimitStore.bookNext`). A tenant's call, with a rate,
   * books by the tenants' rule (`LimitStore.bookFair`): across every process that shares the line,
   * the next turn goes to the waiting tenant served least for its weight.
   */
  private async requestTurn({ tenant, signal, onWait }: Pick<BookedCall, "tenant" | "signal" | "onWait">) {
    const intervalMs = this.intervalMs;
    // A claim outlives the time it asks again by this much: a process that died, or a call that
    // gave up, holds the tenants behind it no longer than that.
    const claimMs = Math.max(1000, 2 * intervalMs);
    for (;;) {
      const now = Date.now();
      const turn =
        tenant === undefined || intervalMs === 0
          ? await this.store.bookNext(this.key, { intervalMs, now })
          : await this.store.bookFair(this.key, { tenant, intervalMs, now, step: 1 / (this.weights.get(tenant) ?? 1), claimMs });
      if ("start" in turn) return turn.start;
      onWait?.(turn.retryAt + intervalMs);
      await sleep(turn.retryAt - Date.now(), signal ? { signal } : {});
    }
  }

  async settleTokens(held: number, used: number): Promise<void> {
    if (this.msPerToken === 0 || !Number.isFinite(held) || !Number.isFinite(used)) return;
    // The figure is the provider's answer: one that says a call used more than a window holds
    // (10^12 tokens) would book the line years ahead for every caller. It pushes one window at most.
    const change = Math.min(Math.max(0, used) - Math.max(0, held), this.windowTokens);
    // A negative booking gives time back to the line (LimitStore.book).
    if (change !== 0) await this.store.book(this.tokensKey, { intervalMs: change * this.msPerToken, now: Date.now() });
  }

  async coolDown(ms: number): Promise<void> {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
      throw new InvalidOptionsError(`coolDown takes a finite number of ms >= 0, got ${String(ms)}; a time you could not read is no time`);
    const now = Date.now();
    await this.store.closeUntil(this.key, { until: now + Math.min(ms, longestCooldownMs), now });
  }

  async closedFor(): Promise<number> {
    const now = Date.now();
    return Math.max(0, heldCooldown(await this.store.closedUntil(this.key), now) - now);
  }
}
