/**
 * Tenants' turns at a limit shared across processes, decided where the turns are booked: a
 * tenant's call asks the store for the next turn, and gets it only if no turn booked before is
 * still to come and no other tenant that waits has been served less for its weight. Otherwise
 * the store keeps its claim (the tenant waits, with its mark) and says when to ask again. Every
 * store applies this rule in one atomic step (memory and SQLite call this function; Postgres and
 * Redis run a copy of it, checked against it by `test/limits/fair-turn-stores.test.ts`).
 *
 * Marks as in one process's `TenantLine`: each turn moves the tenant's mark on by 1 ÷ its
 * weight; the lowest mark among the waiting tenants goes next, the one waiting longest among
 * equals; a tenant that was not waiting comes back level with the mark of the last turn given.
 *
 * A clock set back (`next-turn.ts`): a line further ahead than one booking can put it starts again
 * from now, and a claim that holds longer than one asking can make it hold counts as let go.
 */
import { clockSlackMs, rebasedLine, type FairLine, type FairTurn } from "./next-turn.js";

export type { FairLine, FairTurn };

/** A tenant's place in a line: its mark, since when it waits, until when its claim holds (past: not waiting). */
export interface TenantClaim {
  mark: number;
  since: number;
  until: number;
}

export interface FairTurnRequest {
  tenant: string;
  /** The time between two turns (> 0). */
  intervalMs: number;
  now: number;
  /** 1 ÷ the tenant's weight: how far a turn moves its mark. */
  step: number;
  /** How long a claim outlives the time it was told to ask again (a process that died lets go then). */
  claimMs: number;
}

export interface FairDecision {
  turn: FairTurn;
  line: FairLine;
  /** The tenant's claim as it is after the call. */
  claim: TenantClaim;
  /** Tenants whose entries say nothing any more (idle, level with the line or behind it): drop them. */
  forget: string[];
}

/** The rule (see the file's comment); `claims` are the line's tenants, by name. */
export function decideFairTurn(stored: FairLine, storedClaims: ReadonlyMap<string, TenantClaim>, request: FairTurnRequest): FairDecision {
  const { tenant, intervalMs, now, step, claimMs } = request;
  const line = rebasedLine(stored, request);
  const claims = heldClaims(storedClaims, line, request);
  const own = claims.get(tenant) ?? { mark: 0, since: 0, until: 0 };
  const waiting = own.until > now;
  const mark = waiting ? own.mark : Math.max(own.mark, line.lastMark);
  const since = waiting ? own.since : now;
  // The turn booked last has come (or none was): the next may be booked. Booking one turn at a
  // time is what lets a tenant that comes later go before turns another tenant would book ahead.
  const lastStart = line.next - intervalMs;
  const open = lastStart <= now;
  let ahead = false;
  for (const [other, claim] of claims)
    if (other !== tenant && claim.until > now && (claim.mark < mark || (claim.mark === mark && claim.since < since))) ahead = true;
  if (open && !ahead) {
    const start = Math.max(now, line.next, line.closed);
    const forget: string[] = [];
    for (const [other, claim] of claims) if (other !== tenant && claim.until <= now && claim.mark <= mark) forget.push(other);
    // The served tenant's claim holds until the next turn starts: its next call, asking a moment
    // after this turn came, still finds its mark there, and a tenant of weight 3 keeps 3 turns of
    // 4. No turn is lost if it does not come: the next turn can be booked only then anyway. Among
    // equal marks the served tenant goes behind the others (its claim waits from now).
    return {
      turn: { start },
      line: { next: start + intervalMs, closed: line.closed, lastMark: mark },
      claim: { mark: mark + step, since: now, until: start + intervalMs },
      forget,
    };
  }
  // Booked ahead: ask again when that turn comes. Open, but a tenant served less waits: it books
  // now, so ask again when its turn would come.
  const retryAt = open ? Math.max(line.next, line.closed, now + intervalMs) : lastStart;
  // The stored line, as it was: a line is re-based only with a booking (as every store writes it).
  return { turn: { retryAt }, line: stored, claim: { mark, since, until: Math.max(own.until, retryAt + claimMs) }, forget: [] };
}

/**
 * The claims as they hold at `now`: one asking holds a claim no further ahead than a turn past the
 * later of its now and the cooldown, plus `claimMs`; a claim further ahead was made on a clock set
 * back since, and counts as let go (its tenant, if alive, asks again and claims anew).
 */
function heldClaims(claims: ReadonlyMap<string, TenantClaim>, line: FairLine, request: FairTurnRequest): ReadonlyMap<string, TenantClaim> {
  const latest = Math.max(request.now + request.intervalMs, line.closed) + request.claimMs + clockSlackMs;
  let held: Map<string, TenantClaim> | undefined;
  for (const [tenant, claim] of claims) if (claim.until > latest) (held ??= new Map(claims)).set(tenant, { ...claim, until: 0 });
  return held ?? claims;
}
