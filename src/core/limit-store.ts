import { decideFairTurn, type FairTurn, type FairTurnRequest, type TenantClaim } from "./fair-turn.js";
import { decideBooking, type BookRequest } from "./booked-line.js";
import { decideNextTurn, heldCooldown, type NextTurnRequest } from "./next-turn.js";
import { InvalidOptionsError } from "./errors.js";

export type { BookRequest };

/**
 * Where the state of limits and write keys lives: this process's memory, or a store that every
 * process shares (Redis, Postgres, a SQLite file). Each operation is one atomic step in the store,
 * so processes that share it never see each other's half-done updates. A turn's times are ms since
 * 1970 on the caller's clock (processes sharing a store are expected to agree on the time); a write
 * key's hold is timed by the store's own clock (see `hold`).
 */
export interface LimitStore {
  /**
   * Books the next turn of `key`: the later of `notBefore` (default `now`), the turn booked before
   * plus its `intervalMs`, and the end of the key's cooldown (`decideBooking`: a line booked on a
   * clock set back since moves back by as much). Gives back the time the booked turn starts; the
   * turn after it is `intervalMs` later. Turns are booked in the order the store receives the calls.
   */
  book(key: string, request: BookRequest): Promise<number>;
  /**
   * Books the next turn of `key` if the turn booked before has come, else says when to ask again
   * (`decideNextTurn`: one turn booked ahead at most, and a line booked on a clock set back since
   * starts again from `now`). One atomic step, shared with `bookFair`'s turns.
   */
  bookNext(key: string, request: NextTurnRequest): Promise<FairTurn>;
  /**
   * Books the next turn of `key` for a tenant's call if it is that tenant's turn
   * (`decideFairTurn`: the turn booked before has come, no tenant served less waits), else keeps
   * the tenant's claim and says when to ask again. One atomic step, shared with `book`'s turns.
   */
  bookFair(key: string, request: FairTurnRequest): Promise<FairTurn>;
  /**
   * Closes `key` until `until` (a later time already set is kept, unless it ends further ahead of
   * `now` than any cooldown can: `heldCooldown`); an `until` that is not finite is refused
   * (`checkClosingTime`).
   */
  closeUntil(key: string, request: { until: number; now: number }): Promise<void>;
  /** Until when `key` is closed (0, or a past time: open), as stored: read it through `heldCooldown`. */
  closedUntil(key: string): Promise<number>;
  /**
   * Holds `key` for `holder` for `holdMs`, if no one else holds it or the one who did let its time
   * run out. Whether `holder` holds it now. The time is the store's own, never the caller's: a
   * caller's wall clock set forward must not make a live hold look run out (Postgres and Redis
   * judge by the server's clock, a SQLite file by the machine's monotonic clock).
   */
  hold(key: string, request: HoldRequest): Promise<boolean>;
  /**
   * Extends `holder`'s hold of `key` by `holdMs` if it still holds it and its time has not run
   * out; false if the hold was lost (run out, or taken by another), and then it is not taken again.
   */
  renew(key: string, request: HoldRequest): Promise<boolean>;
  /** Lets go of `key` if `holder` holds it. */
  letGo(key: string, holder: string): Promise<void>;
  /**
   * Holds `amount` on the ledger `key` (what a call may spend), if what is spent is below
   * `ceiling` and what is spent and held stays within it once `amount` is added. Whether it was
   * held, and what the ledger had spent.
   */
  draw(key: string, amount: Spend, ceiling: Spend): Promise<{ held: boolean; spent: Spend }>;
  /** Gives back `held` on the ledger `key` and adds what was really `spent`. */
  settle(key: string, held: Spend, spent: Spend): Promise<void>;
}

/** Who holds a write key, and for how long (`LimitStore.hold`, `LimitStore.renew`). */
export interface HoldRequest {
  holder: string;
  holdMs: number;
}

/** Tokens and dollars, on a ledger (`LimitStore.draw`). */
export interface Spend {
  tokens: number;
  costUsd: number;
}

/** Whether `amount` fits a ledger that spent `spent` and holds `held` under `ceiling` (the rule every store applies). */
export function fits(spent: Spend, held: Spend, amount: Spend, ceiling: Spend): boolean {
  return (
    spent.tokens < ceiling.tokens &&
    spent.tokens + held.tokens + amount.tokens <= ceiling.tokens &&
    spent.costUsd < ceiling.costUsd &&
    spent.costUsd + held.costUsd + amount.costUsd <= ceiling.costUsd
  );
}

/** Refuses a cooldown's end that is not a time (NaN, Infinity): kept, it would switch a rate off or close a limit for good. */
export function checkClosingTime(until: number): void {
  if (typeof until !== "number" || !Number.isFinite(until))
    throw new InvalidOptionsError(`a limit is closed until a time in ms since 1970, not ${String(until)}`);
}

/** The state of limits in this process only. */
export function memoryLimitStore(): LimitStore {
  const next = new Map<string, number>();
  const closed = new Map<string, number>();
  const lastMarks = new Map<string, number>();
  const bookedAt = new Map<string, number>();
  const claims = new Map<string, Map<string, TenantClaim>>();
  const holds = new Map<string, { holder: string; until: number }>();
  const ledgers = new Map<string, { spent: Spend; held: Spend }>();
  const ledger = (key: string) => {
    let found = ledgers.get(key);
    if (found === undefined) ledgers.set(key, (found = { spent: { tokens: 0, costUsd: 0 }, held: { tokens: 0, costUsd: 0 } }));
    return found;
  };
  return {
    book: async (key, request) => {
      const { start, line } = decideBooking(
        { next: next.get(key) ?? 0, closed: closed.get(key) ?? 0, at: bookedAt.get(key) ?? 0 },
        request,
      );
      next.set(key, line.next);
      closed.set(key, line.closed);
      bookedAt.set(key, line.at);
      return start;
    },
    bookNext: async (key, request) => {
      const decision = decideNextTurn({ next: next.get(key) ?? 0, closed: closed.get(key) ?? 0, lastMark: 0 }, request);
      next.set(key, decision.line.next);
      closed.set(key, decision.line.closed);
      return decision.turn;
    },
    bookFair: async (key, request) => {
      let line = claims.get(key);
      if (line === undefined) claims.set(key, (line = new Map()));
      const state = { next: next.get(key) ?? 0, closed: closed.get(key) ?? 0, lastMark: lastMarks.get(key) ?? 0 };
      const decision = decideFairTurn(state, line, request);
      next.set(key, decision.line.next);
      closed.set(key, decision.line.closed);
      lastMarks.set(key, decision.line.lastMark);
      line.set(request.tenant, decision.claim);
      for (const tenant of decision.forget) line.delete(tenant);
      return decision.turn;
    },
    closeUntil: async (key, { until, now }) => {
      checkClosingTime(until);
      closed.set(key, Math.max(until, heldCooldown(closed.get(key) ?? 0, now)));
    },
    closedUntil: async (key) => closed.get(key) ?? 0,
    // This process's monotonic clock: a wall clock set forward does not end a hold early.
    hold: async (key, { holder, holdMs }) => {
      const now = performance.now();
      const held = holds.get(key);
      if (held !== undefined && held.holder !== holder && held.until >= now) return false;
      holds.set(key, { holder, until: now + holdMs });
      return true;
    },
    renew: async (key, { holder, holdMs }) => {
      const now = performance.now();
      const held = holds.get(key);
      if (held === undefined || held.holder !== holder || held.until < now) return false;
      held.until = now + holdMs;
      return true;
    },
    letGo: async (key, holder) => {
      if (holds.get(key)?.holder === holder) holds.delete(key);
    },
    draw: async (key, amount, ceiling) => {
      const { spent, held } = ledger(key);
      if (!fits(spent, held, amount, ceiling)) return { held: false, spent: { ...spent } };
      held.tokens += amount.tokens;
      held.costUsd += amount.costUsd;
      return { held: true, spent: { ...spent } };
    },
    settle: async (key, held, spent) => {
      const found = ledger(key);
      found.held.tokens -= held.tokens;
      found.held.costUsd -= held.costUsd;
      found.spent.tokens += spent.tokens;
      found.spent.costUsd += spent.costUsd;
    },
  };
}
