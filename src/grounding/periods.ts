/**
 * What a field's name says of the period it holds: `revenue_this_week` and `revenue_last_week`
 * are one measure ("revenue") in two periods, this week the later; `tickets_2025` and
 * `tickets_2024` too; `{ this_week: { orders } }` says it in the path. A change is read from
 * the earlier period to the later, so its direction can be checked.
 */
export interface Period {
  /** Periods of one kind compare: "relative" (this/last), a "year", a "quarter", a "date" (a row's day). */
  kind: "relative" | "year" | "quarter" | "month" | "week" | "weekday" | "date" | "plan";
  rank: number;
}

/** A field's name in words: `revenue_this_week` → ["revenue", "this", "week"]; `ordersLastMonth` → ["orders", "last", "month"]. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
/** A month's number from its name or its first three letters ("october", "oct"), else 0. */
export function monthOf(word: string): number {
  const at = months.indexOf(word.slice(0, 3));
  const full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
  return at !== -1 && (word.length === 3 || full[at] === word || (at === 8 && word === "sept")) ? at + 1 : 0;
}

// `ly`, `lm`, `lq`: last year, month, quarter (`sales_ly`); `opening` and `closing` balances, a count at a period's `start` and `end`.
const later = new Set([
  "this",
  "current",
  "cur",
  "curr",
  "latest",
  "now",
  "today",
  "tw",
  "cy",
  "ty",
  "new",
  "after",
  "closing",
  "end",
  "aktuell",
  "actuel",
  "actuelle",
  "attuale",
]);
const earlier = new Set([
  "last",
  "previous",
  "prev",
  "prior",
  "before",
  "ago",
  "yesterday",
  "lw",
  "ly",
  "lm",
  "lq",
  "py",
  "old",
  "earlier",
  "baseline",
  "opening",
  "start",
  // German, French, Spanish, Italian: `umsatz_vorjahr`, `ca_precedent`, `ventas_anterior`.
  "vorjahr",
  "vormonat",
  "vorwoche",
  "vorquartal",
  "vorperiode",
  "vj",
  "precedent",
  "précédent",
  "anterior",
  "precedente",
]);
/** Words that name a period's length, not the measure: left out of the stem. */
const periodUnits = new Set([
  "week",
  "weeks",
  "wk",
  "month",
  "months",
  "mo",
  "quarter",
  "qtr",
  "year",
  "yr",
  "day",
  "period",
  "ytd",
  "mtd",
]);

/** The period a field's name (or one of its path's segments) speaks of, if any. */
export function periodOf(words: readonly string[]): Period | undefined {
  const paired = pairedPeriod(words);
  if (paired !== undefined) return paired;
  for (const word of words) {
    if (later.has(word)) return { kind: "relative", rank: 1 };
    if (earlier.has(word)) return { kind: "relative", rank: 0 };
    const year = /^(?:fy|cy)?((?:19|20)\d\d)$/.exec(word);
    if (year) return { kind: "year", rank: Number(year[1]) };
    // `revenue_w47`, `orders_wk46`: a week's number.
    const week = /^(?:w|wk)(\d{1,2})$/.exec(word);
    if (week) return { kind: "week", rank: Number(week[1]) };
    const quarter = /^q([1-4])$/.exec(word);
    if (quarter) return { kind: "quarter", rank: Number(quarter[1]) };
    const month = monthOf(word);
    if (month > 0) return { kind: "month", rank: month };
    // `open_tickets_monday`, `open_tickets_friday`: a week's days, Monday first.
    const day = weekdays.indexOf(word);
    if (day !== -1) return { kind: "weekday", rank: day + 1 };
    // `budget_eur` and `actual_eur`: what was planned, and what happened ("€11,400 over budget").
    if (planned.has(word)) return { kind: "plan", rank: 0 };
    if (actual.has(word)) return { kind: "plan", rank: 1 };
  }
  return undefined;
}

/**
 * A period written in two words: `week_47`, `quarter_3`, `month_11` (a unit and its number), and
 * `2025-Q4`, `2026-W47`, `2026-11` (a year and a part of it): ranked within the year.
 */
function pairedPeriod(words: readonly string[]): Period | undefined {
  for (let at = 0; at + 1 < words.length; at += 1) {
    const [first, second] = [words[at]!, words[at + 1]!];
    // `week_ending_2026_11_22`, `"2026-11-15"`: a day.
    const day = dayOf(words, at);
    if (day !== undefined) return { kind: "date", rank: Date.parse(day) };
    const number = /^\d{1,2}$/.test(second) ? Number(second) : undefined;
    if (number !== undefined && /^(?:week|wk|w)$/.test(first)) return { kind: "week", rank: number };
    if (number !== undefined && /^(?:quarter|qtr|q)$/.test(first) && number >= 1 && number <= 4) return { kind: "quarter", rank: number };
    if (number !== undefined && /^(?:month|mo)$/.test(first) && number >= 1 && number <= 12) return { kind: "month", rank: number };
    const year = /^(?:fy|cy)?((?:19|20)\d\d)$/.exec(first)?.[1];
    if (year === undefined) continue;
    const week = /^(?:w|wk)(\d{1,2})$/.exec(second);
    if (week) return { kind: "week", rank: Number(year) * 100 + Number(week[1]) };
    const quarter = /^q([1-4])$/.exec(second);
    if (quarter) return { kind: "quarter", rank: Number(year) * 10 + Number(quarter[1]) };
    if (/^(?:0[1-9]|1[0-2])$/.test(second)) return { kind: "month", rank: Number(year) * 100 + Number(second) };
  }
  return undefined;
}

/** The day `yyyy-mm-dd` three words from `at` write (`2026`, `11`, `22`), if they write one. */
export function dayOf(words: readonly string[], at: number): string | undefined {
  const [year, month, day] = [words[at], words[at + 1], words[at + 2]];
  if (year === undefined || month === undefined || day === undefined) return undefined;
  if (!/^(?:19|20)\d\d$/.test(year) || !/^(?:0[1-9]|1[0-2])$/.test(month) || !/^(?:0[1-9]|[12]\d|3[01])$/.test(day)) return undefined;
  return `${year}-${month}-${day}`;
}

const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const planned = new Set(["budget", "budgeted", "plan", "planned", "target", "forecast", "forecasted", "goal", "quota"]);
const actual = new Set(["actual", "actuals"]);

/** A field's measure: its name's words less those of periods ("revenue" of `revenue_this_week`). */
export function stemOf(words: readonly string[]): string {
  return words
    .filter(
      // The number of `week_47`, `quarter_3` is the period's.
      (word, at) =>
        !(/^\d{1,2}$/.test(word) && at > 0 && /^(?:week|wk|w|quarter|qtr|q|month|mo|day)$/.test(words[at - 1]!)) &&
        !later.has(word) &&
        !earlier.has(word) &&
        !periodUnits.has(word) &&
        !/^(?:fy|cy)?(?:19|20)\d\d$/.test(word) &&
        !/^(?:w|wk)\d{1,2}$/.test(word) &&
        !/^q[1-4]$/.test(word) &&
        monthOf(word) === 0 &&
        !weekdays.includes(word) &&
        !planned.has(word) &&
        !actual.has(word),
    )
    .join(" ");
}
