/**
 * A line that may be booked far ahead: a limit's tokens, where each call moves the next turn on by
 * its worst case and a wide fan-out books at once (`LimitStore.book`). How far ahead it may be has
 * no bound to check, so it keeps the latest clock it was booked on (`at`): a caller whose now is
 * behind that by more than `clockSlackMs` is on a clock set back since, and the line moves back by
 * as much. What was booked before still counts; the setback does not.
 */
import { clockSlackMs, heldCooldown } from "./next-turn.js";

export interface BookedLine {
  /** When the next free turn starts. */
  next: number;
  /** Until when the line is closed. */
  closed: number;
  /** The latest caller's now it was booked at. */
  at: number;
}

export interface BookRequest {
  /** The time the turn takes on the line (negative: time given back). */
  intervalMs: number;
  /** The caller's clock. */
  now: number;
  /** The turn starts no sooner than this (a request's own turn), default `now`. */
  notBefore?: number | undefined;
}

/** Books the next turn: the later of `notBefore`, the line's next turn (moved back by a setback) and the end of its cooldown. */
export function decideBooking(stored: BookedLine, request: BookRequest): { start: number; line: BookedLine } {
  const { intervalMs, now } = request;
  const back = stored.at > now + clockSlackMs ? stored.at - now : 0;
  const closed = heldCooldown(stored.closed, now);
  const start = Math.max(now, request.notBefore ?? now, stored.next - back, closed);
  return { start, line: { next: start + intervalMs, closed, at: back > 0 ? now : Math.max(stored.at, now) } };
}
