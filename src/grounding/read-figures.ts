import { readNumbers } from "./read-numbers.js";

/**
 * Reads the checkable figures out of a piece of text: numbers (with currency, percentages,
 * thousands separators, k/M/B scales and the precision they were written with), dates,
 * identifiers and quoted or bold names. The same reader runs over an answer's sentences and
 * over the strings in step outputs, so both sides read "¥12,345.60" the same way.
 */

export type { Figure, FigureKind, Hedge, NumberUnit } from "./figure.js";
import type { Figure } from "./figure.js";

const monthNames =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const monthIndex = (name: string) =>
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(name.slice(0, 3).toLowerCase()) + 1;
const two = (value: number | string) => String(value).padStart(2, "0");

interface DateRule {
  /** A text without this cannot hold the rule's dates: the rule is not run on it. */
  needs: RegExp;
  pattern: RegExp;
  read: (match: RegExpExecArray) => string[] | undefined;
}

const monthWord = new RegExp(`\\b(?:${monthNames})`, "i");

const dateRules: DateRule[] = [
  {
    needs: /\d-\d/,
    pattern: /\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/g,
    read: (match) => [`${match[1]}-${match[2]}-${match[3]}`],
  },
  { needs: /\d-\d/, pattern: /\b(\d{4})-(0[1-9]|1[0-2])(?![\d-])/g, read: (match) => [`${match[1]}-${match[2]}`] },
  {
    needs: monthWord,
    pattern: new RegExp(`\\b(${monthNames})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "gi"),
    read: (match) => monthDay(match[1]!, match[2]!, match[3]),
  },
  {
    needs: monthWord,
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${monthNames})\\.?(?:,?\\s+(\\d{4}))?\\b`, "gi"),
    read: (match) => monthDay(match[2]!, match[1]!, match[3]),
  },
  {
    needs: monthWord,
    pattern: new RegExp(`\\b(${monthNames})\\.?\\s+(\\d{4})\\b`, "gi"),
    read: (match) => (isMonthWord(match[1]!) ? [`${match[2]}-${two(monthIndex(match[1]!))}`] : undefined),
  },
  {
    // 03/04/2026 reads both ways: the evidence decides.
    needs: /\d\/\d/,
    pattern: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g,
    read: ([, first, second, year]) => {
      const readings = [`${year}-${two(second!)}-${two(first!)}`, `${year}-${two(first!)}-${two(second!)}`];
      return [...new Set(readings.filter((date) => validDate(date)))];
    },
  },
];

/** Times of day are masked: they are not checked. */
const timeOfDay = /\b\d{1,2}:\d{2}(?::\d{2})?\b/g;

function isMonthWord(text: string): boolean {
  // "may" in lower case is the verb.
  return text.toLowerCase() !== "may" || text[0] === "M";
}

function monthDay(month: string, day: string, year: string | undefined): string[] | undefined {
  if (!isMonthWord(month)) return undefined;
  const date = `${year ?? "--"}-${two(monthIndex(month))}-${two(day)}`.replace("---", "--");
  return validDate(date) ? [date] : undefined;
}

function validDate(date: string): boolean {
  const [, month, day] = /(\d{2})-(\d{2})$/.exec(date) ?? [];
  return Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= 31;
}

/** Identifiers: a letter code with at least three digits ("#W2378156", "credit_card_9513926", "INV-2041"). */
const idPattern = /(?<![\p{L}\p{N}_#-])#?(?=[\w-]*\d{3})(?=[\w-]*\p{L})[\p{L}\p{N}][\w-]*[\p{L}\p{N}]/gu;
/** A phone number: "+1 415-555-0132", "(020) 7946-0958", "555-0132" after an area code. */
const phonePattern = /(?<![\p{L}\p{N}_.,])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{4}(?![\p{L}\p{N}])/gu;
/** A number glued to a unit ("250ms", "3kg") is a number, not an identifier. */
const numberWithUnit = /^\d+(?:\.\d+)?[\p{L}]{1,3}$/u;

/** Two or more capitalised words in a row: a person, a place, a product ("Li Wei", "Mei Chen"). */
const capitalised = /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)+(?![\p{L}\p{N}])/gu;
const notNames = new Set(
  (
    "the a an on in at for of and or to by with from this that these those it its we our their total weekly daily report " +
    "revenue refunds refund orders order tickets ticket support most all each every per no yes step steps monday tuesday " +
    "wednesday thursday friday saturday sunday january february march april may june july august september october " +
    "november december jan feb mar apr jun jul aug sep sept oct nov dec " +
    // Articles of the languages whose reports capitalise nouns or write them after one: "Der Umsatz" is no name.
    "der die das den dem des ein eine einen einem einer le la les un une el los las il lo gli"
  ).split(" "),
);

const namePatterns: Array<[string, RegExp]> = [
  ['"', /"([^"\n]{2,80})"/g],
  ["“", /“([^”\n]{2,80})”/g],
  ["‘", /‘([^’\n]{2,80})’/g],
  ["**", /\*\*([^*\n]{2,60})\*\*/g],
];

/** Replaces each `[start, end)` (in order, not overlapping) with spaces, so later patterns skip what an earlier one read: one pass, however many. */
function mask(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (spans.length === 0) return text;
  const pieces: string[] = [];
  let from = 0;
  for (const [start, end] of spans) {
    pieces.push(text.slice(from, start), " ".repeat(end - start));
    from = end;
  }
  pieces.push(text.slice(from));
  return pieces.join("");
}

/**
 * Every figure in `text`, in order. Dates are read first (their digits are not numbers),
 * then identifiers, then numbers; names are read from quotes and bold (their numbers count
 * as numbers too).
 */
export function readFigures(text: string, options: { locale?: string | undefined; words?: boolean | undefined } = {}): Figure[] {
  const figures: Figure[] = [];
  let rest = text;
  const hasMonth = monthWord.test(text);
  for (const rule of dateRules) {
    if (rule.needs === monthWord ? !hasMonth : !rule.needs.test(rest)) continue;
    const spans: Array<[number, number]> = [];
    for (const match of rest.matchAll(rule.pattern)) {
      const dates = rule.read(match);
      if (!dates || dates.length === 0) continue;
      figures.push({ kind: "date", text: match[0], start: match.index, end: match.index + match[0].length, dates });
      spans.push([match.index, match.index + match[0].length]);
    }
    rest = mask(rest, spans);
  }
  rest = mask(
    rest,
    [...rest.matchAll(timeOfDay)].map((match) => [match.index, match.index + match[0].length] as const),
  );
  const ids: Array<[number, number]> = [];
  for (const match of /[+(-]/.test(rest) ? rest.matchAll(phonePattern) : []) {
    // A phone number, not three numbers: a "+", a hyphen or a bracket says so (a plain space may group a French number).
    if (!/[+(-]/.test(match[0])) continue;
    figures.push({ kind: "id", text: match[0], start: match.index, end: match.index + match[0].length, name: match[0] });
    ids.push([match.index, match.index + match[0].length]);
  }
  rest = mask(rest, ids);
  ids.length = 0;
  for (const match of rest.matchAll(idPattern)) {
    // "FY2025", "CY24", "W47": a period's name, like "week 47", no identifier.
    if (numberWithUnit.test(match[0]) || /^\d/.test(match[0]) || /^(?:fy|cy|w|wk)\d{2,4}$/i.test(match[0])) continue;
    figures.push({ kind: "id", text: match[0], start: match.index, end: match.index + match[0].length, name: match[0] });
    ids.push([match.index, match.index + match[0].length]);
  }
  rest = mask(rest, ids);
  figures.push(...readNumbers(rest, options));
  const quoted: Array<[number, number]> = [];
  for (const [opening, pattern] of namePatterns) {
    if (!text.includes(opening)) continue;
    for (const match of text.matchAll(pattern)) {
      const name = match[1]!.trim();
      if (!/\p{L}/u.test(name)) continue;
      figures.push({ kind: "name", text: match[0], start: match.index, end: match.index + match[0].length, name });
      quoted.push([match.index, match.index + match[0].length]);
    }
  }
  for (const match of rest.matchAll(capitalised)) {
    if (quoted.some(([start, end]) => match.index >= start && match.index < end)) continue;
    const words = match[0].split(/[ -]/);
    const skipped = words.findIndex((word) => !notNames.has(word.toLowerCase()));
    const kept = skipped === -1 ? [] : words.slice(skipped);
    if (kept.length < 2 || kept.some((word) => notNames.has(word.toLowerCase()))) continue;
    const name = kept.join(" ");
    const start = match.index + match[0].length - name.length;
    figures.push({ kind: "name", text: name, start, end: start + name.length, name });
  }
  return figures.sort((a, b) => a.start - b.start || a.end - b.end);
}
