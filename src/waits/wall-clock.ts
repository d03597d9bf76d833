/*
 * A time zone's wall clock, read through Intl: what the clocks on the wall show at an instant,
 * and back. A wall-clock time is kept as a number, the milliseconds the shown date and time
 * would be in UTC, so that cron arithmetic (croner, read in UTC) runs on the wall clock with no
 * daylight saving in it; the rule for the nights the clocks change lives in `firstInstantOf`.
 */

const day = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** What the clocks of `zone` show at `instant` (ms since 1970), as a wall-clock number. */
export function wallTime(instant: number, zone: string): number {
  const fields: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(instant)) fields[part.type] = part.value;
  const year = fields.era === "BC" || fields.era === "B" ? 1 - Number(fields.year) : Number(fields.year);
  const shown = new Date(0);
  shown.setUTCFullYear(year, Number(fields.month) - 1, Number(fields.day));
  shown.setUTCHours(Number(fields.hour), Number(fields.minute), Number(fields.second), ((instant % 1000) + 1000) % 1000);
  return shown.getTime();
}

/** How far `zone`'s clocks are ahead of UTC at `instant` (ms). */
export function offsetAt(instant: number, zone: string): number {
  return wallTime(instant, zone) - instant;
}

/**
 * The instant a wall-clock time comes: the first time the clocks show it. On the autumn night a
 * time shown twice comes at its first showing; on the spring night a time the clocks skip comes
 * when they jump (02:30 in Berlin at 03:00). Zones change their offset at most once a day, so the
 * offsets a day before and after are the only candidates.
 */
export function firstInstantOf(wall: number, zone: string): number {
  const before = offsetAt(wall - day, zone);
  const after = offsetAt(wall + day, zone);
  const candidates = [...new Set([before, after])].map((offset) => wall - offset).sort((a, b) => a - b);
  const shown = candidates.find((instant) => wallTime(instant, zone) === wall);
  if (shown !== undefined) return shown;
  // Skipped: the clocks jump over it between the two candidates, at the first instant past it.
  return firstInstantWhere(candidates[0]!, candidates.at(-1)!, (instant) => wallTime(instant, zone) > wall);
}

/**
 * The latest wall-clock time the clocks have shown by `instant`: what they show, except in the
 * second pass of an autumn night's repeated hour, where they showed later times already (the
 * end of the first pass). Every fire time up to it has come.
 */
export function wallReached(instant: number, zone: string): number {
  const shown = wallTime(instant, zone);
  const now = shown - instant;
  const dayBefore = offsetAt(instant - day, zone);
  if (dayBefore <= now) return shown;
  const firstPass = instant - (dayBefore - now);
  if (offsetAt(firstPass, zone) !== dayBefore) return shown;
  const change = firstInstantWhere(firstPass, instant, (at) => offsetAt(at, zone) === now);
  return Math.max(shown, wallTime(change - 1, zone));
}

/** The first instant in (low, high] where `reached` holds, given that it holds from there on (a bisection to the ms). */
function firstInstantWhere(low: number, high: number, reached: (instant: number) => boolean): number {
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (reached(middle)) high = middle;
    else low = middle;
  }
  return high;
}
