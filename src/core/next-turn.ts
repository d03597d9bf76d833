/**
 * A line's next turn, booked one at a time: a call books a turn only once the turn booked before
 * it has come; until then it is told when to ask again. No call holds more than the one turn it
 * waits for, so a call given up while it waits (cancelled, its process killed) leaves one turn
 * unused at most, not the line booked ahead by every call that waited before it.
 *
 * That bound is also what lets a line notice a clock set back: a line booked one turn at a time
 * is never further ahead than one turn past the later of the booker's now and the cooldown. A
 * stored line further ahead than that (give or take `clockSlackMs` of clocks that disagree) was
 * booked on a clock that has since gone back, and starts again from the caller's now.
 */
/** A line of turns: when the next free turn starts, until when it is closed, the mark of the last turn given (tenants' lines, `fair-turn.ts`). */
export interface FairLine {
  next: number;
  closed: number;
  lastMark: number;
}

/** A turn booked (it starts at `start`), or none yet: ask again at `retryAt`. */
export type FairTurn = { start: number } | { retryAt: number };

/** How far clocks (and a caller's `now`, read before its store answers) may disagree before a line counts as booked on a clock set back. */
export const clockSlackMs = 2_000;

/**
 * The longest cooldown a limit is closed for (the longest `Retry-After` honoured, `coolDown`'s
 * most). A cooldown that ends further ahead than that, give or take `clockSlackMs`, was set on a
 * clock since set back: it is over.
 */
export const longestCooldownMs = 60_000;

/** Until when a line is closed, as it holds at `now`: 0 if it ends further ahead than any cooldown can (see `longestCooldownMs`). */
export function heldCooldown(closed: number, now: number): number {
  return closed > now + longestCooldownMs + clockSlackMs ? 0 : closed;
}

export interface NextTurnRequest {
  /** The time between two turns (>= 0). */
  intervalMs: number;
  now: number;
}

/**
 * The line as it stands at `now`: its cooldown over if it ends further ahead than any can, and its
 * next turn moved back to `now` if the turn booked last lies further ahead than one booking can
 * have put it (a clock set back since).
 */
export function rebasedLine(line: FairLine, { intervalMs, now }: NextTurnRequest): FairLine {
  const closed = heldCooldown(line.closed, now);
  const lastStart = line.next - intervalMs;
  const next = lastStart > Math.max(now + intervalMs, closed) + clockSlackMs ? now : line.next;
  return next === line.next && closed === line.closed ? line : { ...line, next, closed };
}

/** Books the next turn if the turn booked before has come (see the file's comment), else says when to ask again. */
export function decideNextTurn(stored: FairLine, request: NextTurnRequest): { turn: FairTurn; line: FairLine } {
  const { intervalMs, now } = request;
  const line = rebasedLine(stored, request);
  const lastStart = line.next - intervalMs;
  if (lastStart > now) return { turn: { retryAt: lastStart }, line: stored };
  const start = Math.max(now, line.next, line.closed);
  return { turn: { start }, line: { ...line, next: start + intervalMs } };
}
