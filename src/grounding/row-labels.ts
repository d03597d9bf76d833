import { isRecord } from "../core/is-record.js";
import { monthOf, periodOf, wordsOf, type Period } from "./periods.js";

/**
 * What a row (or an object) of a step's output says of itself: the period it is of
 * (`week: "2026-W47"`, `day: "2026-11-17"`, `year: 2025`), the labels a sentence names it by,
 * and the name an object of an entity gives itself.
 */

const fold = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

const monthNames = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const nameKey = /^(?:name|title|label|display_?name|full_?name|company(?:_name)?|account_?name|customer_?name)$/i;

/** The name an object gives itself (`name: "Northwind"`), folded, if it has one of letters. */
export function nameOf(object: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(object))
    if (nameKey.test(key) && typeof value === "string" && /\p{L}/u.test(value) && value.length <= 80) return fold(value);
  return undefined;
}

/** A field whose values name periods (`period`, `week`, `timeframe`, `window`). */
const periodField = /period|week|month|quarter|year|frame|window|span/i;

/** A field that holds a row's year as a number (`year: 2025`). */
const yearKey = /^(?:year|yr|fy|fiscal_?year|calendar_?year)$/i;

/** "2026-W47", "2025-Q4", "Q4 2025", "FY2025": a week, a quarter of a year, a fiscal year. */
export function periodLabel(label: string): Period | undefined {
  const week = /^(\d{4})-?W(\d{1,2})$/i.exec(label);
  if (week) return { kind: "week", rank: Number(week[1]) * 100 + Number(week[2]) };
  const quarter = /^(\d{4})[- ]?Q([1-4])$/i.exec(label);
  if (quarter) return { kind: "quarter", rank: Number(quarter[1]) * 10 + Number(quarter[2]) };
  const quarterFirst = /^Q([1-4])[- ](\d{4})$/i.exec(label);
  if (quarterFirst) return { kind: "quarter", rank: Number(quarterFirst[2]) * 10 + Number(quarterFirst[1]) };
  const fiscal = /^FY\s?((?:19|20)\d\d)$/i.exec(label);
  if (fiscal) return { kind: "year", rank: Number(fiscal[1]) };
  return undefined;
}

/** A row's day or month, when one of its strings is a date (`2026-11-17`): the rows of a table of days are periods. */
export function rowPeriod(row: Record<string, unknown>): Period | undefined {
  for (const [key, value] of Object.entries(row)) {
    // `period: "last_week"`, `window: "this month"`: a field of periods that names one in words.
    if (typeof value === "string" && periodField.test(key) && value.length <= 40) {
      const named = periodOf(wordsOf(value));
      if (named !== undefined && named.kind === "relative") return named;
    }
    if (yearKey.test(key) && Number.isInteger(value) && (value as number) >= 1900 && (value as number) <= 2100)
      return { kind: "year", rank: value as number };
    const labelled = typeof value === "string" ? periodLabel(value) : undefined;
    if (labelled !== undefined) return labelled;
    if (typeof value === "string" && /^(?:19|20)\d\d$/.test(value)) return { kind: "year", rank: Number(value) };
    if (typeof value === "string" && /^Q[1-4]$/i.test(value)) return { kind: "quarter", rank: Number(value[1]) };
    if (typeof value === "string" && monthOf(value.toLowerCase()) > 0) return { kind: "month", rank: monthOf(value.toLowerCase()) };
    if (typeof value !== "string" || !/^\d{4}-\d{2}(?:-\d{2})?(?![\d])/.test(value)) continue;
    const time = Date.parse(value.length === 7 ? `${value}-01` : value.slice(0, 10));
    if (Number.isFinite(time)) return { kind: "date", rank: time };
  }
  return undefined;
}

/**
 * A row's labels: its strings of three characters or more that are not just a number, a
 * period's short name ("Q3", "H1"), and a month's name for a month written as digits
 * ("2026-11" is November's row).
 */
export function rowLabels(row: Record<string, unknown>): string[] {
  // A row's own strings, and those of an object in it (`customer: { name: "Contoso" }`).
  const labels = Object.values(row)
    .flatMap((value) => (isRecord(value) ? Object.values(value) : [value]))
    .filter((value): value is string => typeof value === "string")
    .map(fold)
    .filter((label) => (label.length >= 3 && /\p{L}|\d{4}-\d{2}/u.test(label)) || /^[qh][1-4]$/.test(label));
  // "last_week" is named by "last week".
  for (const label of [...labels]) if (label.includes("_")) labels.push(label.replace(/_/g, " "));
  // "Germany" names the row of "DE", "Acme" that of "Acme Corp".
  for (const value of Object.values(row)) if (typeof value === "string") labels.push(...otherNames(value));
  const month = labels.map((label) => /^\d{4}-(0[1-9]|1[0-2])$/.exec(label)?.[1]).find((found) => found !== undefined);
  if (month !== undefined) labels.push(monthNames[Number(month) - 1]!);
  // "2026-W47" is named by "week 47" and "W47"; "2025-Q4" and "Q4 2025" by "Q4"; a year held as a number by its digits.
  for (const label of [...labels]) {
    const week = /^\d{4}-?w(\d{1,2})$/.exec(label);
    if (week) labels.push(`week ${Number(week[1])}`, `w${Number(week[1])}`);
    const quarter = /^\d{4}[- ]?(q[1-4])$/.exec(label) ?? /^(q[1-4])[- ]\d{4}$/.exec(label);
    if (quarter) labels.push(quarter[1]!);
  }
  for (const [key, value] of Object.entries(row)) if (yearKey.test(key) && Number.isInteger(value)) labels.push(String(value));
  return labels;
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
const legalForm =
  /[\s,]+(?:inc|incorporated|corp|corporation|co|company|ltd|limited|llc|llp|plc|gmbh|ag|sa|sas|srl|bv|nv|pty|group|holdings)\.?$/i;

/**
 * Other names a label goes by: a country's English name for its ISO code ("DE": "germany"), a
 * company's name without its legal form ("Acme Corp": "acme"); lower case.
 */
export function otherNames(label: string): string[] {
  const trimmed = label.trim();
  if (/^[A-Z]{2}$/.test(trimmed)) {
    const name = regionNames.of(trimmed);
    return name === undefined || name === trimmed ? [] : [fold(name)];
  }
  const bare = trimmed.replace(legalForm, "");
  return bare !== trimmed && /\p{L}{3}/u.test(bare) ? [fold(bare)] : [];
}
