/**
 * Reads the checkable figures out of a piece of text: numbers (with currency, percentages,
 * thousands separators, k/M/B scales and the precision they were written with), dates,
 * identifiers and quoted or bold names. The same reader runs over an answer's sentences and
 * over the strings in step outputs, so both sides read "¥12,345.60" the same way.
 */

export type FigureKind = "number" | "date" | "name" | "id";

/** How a number was qualified in words: "about 1,200", "over 40", "under 5%". */
export type Hedge = "about" | "over" | "under";

/** What a number measures, as far as the text says: a percentage, percentage points, a multiple, money. */
export type NumberUnit = "%" | "pp" | "x" | "currency";

export interface Figure {
  kind: FigureKind;
  /** As written in the text. */
  text: string;
  start: number;
  end: number;
  /** number: the value at its scale (12% is 12, ¥1.2M is 1,200,000). */
  value?: number;
  /** number: one unit of the last digit written, at the value's scale (1.2M: 100,000). */
  precision?: number;
  unit?: NumberUnit;
  currency?: string;
  hedge?: Hedge;
  /** number: a plain integer from 1900 to 2100 with nothing around it may be a year. */
  year?: boolean;
  /** date: every reading of it as yyyy-mm-dd, yyyy-mm, --mm-dd (no year) or yyyy. */
  dates?: string[];
  /** name, id: the text to look for in the evidence. */
  name?: string;
}

const monthNames =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const monthIndex = (name: string) =>
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(name.slice(0, 3).toLowerCase()) + 1;
const two = (value: number | string) => String(value).padStart(2, "0");

interface DateRule {
  pattern: RegExp;
  read: (match: RegExpExecArray) => string[] | undefined;
}

const dateRules: DateRule[] = [
  {
    pattern: /\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/g,
    read: (match) => [`${match[1]}-${match[2]}-${match[3]}`],
  },
  { pattern: /\b(\d{4})-(0[1-9]|1[0-2])(?![\d-])/g, read: (match) => [`${match[1]}-${match[2]}`] },
  {
    pattern: new RegExp(`\\b(${monthNames})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "gi"),
    read: (match) => monthDay(match[1]!, match[2]!, match[3]),
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${monthNames})\\.?(?:,?\\s+(\\d{4}))?\\b`, "gi"),
    read: (match) => monthDay(match[2]!, match[1]!, match[3]),
  },
  {
    pattern: new RegExp(`\\b(${monthNames})\\.?\\s+(\\d{4})\\b`, "gi"),
    read: (match) => (isMonthWord(match[1]!) ? [`${match[2]}-${two(monthIndex(match[1]!))}`] : undefined),
  },
  {
    // 03/04/2026 reads both ways: the evidence decides.
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

const currencySymbols = "US\\$|CN¥|RMB|USD|EUR|GBP|CNY|JPY|\\$|€|£|¥";
const tightSuffix = "%|×|x|k|K|M|B|bn|mn|pp|pts?";
const wordSuffix = "percent|per cent|percentage points?|thousand|million|billion";
const trailingCurrency = "USD|EUR|GBP|CNY|RMB|JPY|yuan|dollars?|euros?";
const numberPattern = new RegExp(
  `(?<![\\p{L}\\p{N}_.#/\\\\-])([-−+])?(?:(${currencySymbols})\\s?)?(\\d{1,3}(?:,\\d{3})+|\\d+)(\\.\\d+)?` +
    `(?:(?:\\s?(%)|(${tightSuffix}))(?![\\p{L}\\p{N}_])|\\s(${wordSuffix})\\b)?` +
    `(?:\\s?(${trailingCurrency})\\b)?(?![\\p{L}\\p{N}_]|[.,]\\d)`,
  "gu",
);

const scales: Record<string, number> = { k: 1e3, K: 1e3, thousand: 1e3, M: 1e6, mn: 1e6, million: 1e6, B: 1e9, bn: 1e9, billion: 1e9 };

function unitOf(suffix: string | undefined): NumberUnit | undefined {
  if (suffix === undefined) return undefined;
  if (suffix === "%" || /^per ?cent$/.test(suffix)) return "%";
  if (/^(pp|pts?|percentage points?)$/.test(suffix)) return "pp";
  if (suffix === "x" || suffix === "×") return "x";
  return undefined;
}

const hedges: Array<[RegExp, Hedge]> = [
  [/(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|close to|~|≈)\s*$/i, "about"],
  [/(?:over|more than|above|at least|upwards of|in excess of|>)\s*$/i, "over"],
  [/(?:under|below|less than|fewer than|up to|at most|<)\s*$/i, "under"],
];

function hedgeBefore(text: string, start: number): Hedge | undefined {
  const before = text.slice(Math.max(0, start - 24), start);
  return hedges.find(([pattern]) => pattern.test(before))?.[1];
}

function readNumber(text: string, match: RegExpExecArray): Figure {
  const [whole, sign, currency, integer, decimals, percent, tight, word, currencyWord] = match;
  const suffix = percent ?? tight ?? word;
  const scale = suffix === undefined ? 1 : (scales[suffix] ?? 1);
  const digits = Number(`${integer!.replace(/,/g, "")}${decimals ?? ""}`);
  const negative = sign === "-" || sign === "−";
  const figure: Figure = {
    kind: "number",
    text: whole.trim(),
    start: match.index,
    end: match.index + whole.trimEnd().length,
    value: (negative ? -digits : digits) * scale,
    precision: 10 ** -(decimals ? decimals.length - 1 : 0) * scale,
  };
  const unit = (currency ?? currencyWord) ? "currency" : unitOf(suffix);
  if (unit) figure.unit = unit;
  if (currency ?? currencyWord) figure.currency = (currency ?? currencyWord)!;
  const hedge = hedgeBefore(text, match.index);
  if (hedge) figure.hedge = hedge;
  if (!decimals && !suffix && !currency && !currencyWord && !sign && /^\d{4}$/.test(integer!) && digits >= 1900 && digits <= 2100)
    figure.year = true;
  return figure;
}

/** Identifiers: a letter code with at least three digits ("#W2378156", "credit_card_9513926", "INV-2041"). */
const idPattern = /(?<![\p{L}\p{N}_#-])#?(?=[\w-]*\d{3})(?=[\w-]*\p{L})[\p{L}\p{N}][\w-]*[\p{L}\p{N}]/gu;
/** A number glued to a unit ("250ms", "3kg") is a number, not an identifier. */
const numberWithUnit = /^\d+(?:\.\d+)?[\p{L}]{1,3}$/u;

/** Two or more capitalised words in a row: a person, a place, a product ("Li Wei", "Mei Chen"). */
const capitalised = /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)+(?![\p{L}\p{N}])/gu;
const notNames = new Set(
  (
    "the a an on in at for of and or to by with from this that these those it its we our their total weekly daily report " +
    "revenue refunds refund orders order tickets ticket support most all each every per no yes step steps monday tuesday " +
    "wednesday thursday friday saturday sunday january february march april may june july august september october " +
    "november december jan feb mar apr jun jul aug sep sept oct nov dec"
  ).split(" "),
);

const namePatterns = [/"([^"\n]{2,80})"/g, /“([^”\n]{2,80})”/g, /‘([^’\n]{2,80})’/g, /\*\*([^*\n]{2,60})\*\*/g];

/** Replaces `[start, end)` with spaces, so later patterns skip what an earlier one read. */
function mask(text: string, start: number, end: number): string {
  return text.slice(0, start) + " ".repeat(end - start) + text.slice(end);
}

/**
 * Every figure in `text`, in order. Dates are read first (their digits are not numbers),
 * then identifiers, then numbers; names are read from quotes and bold (their numbers count
 * as numbers too).
 */
export function readFigures(text: string): Figure[] {
  const figures: Figure[] = [];
  let rest = text;
  for (const rule of dateRules) {
    for (const match of rest.matchAll(rule.pattern)) {
      const dates = rule.read(match);
      if (!dates || dates.length === 0) continue;
      figures.push({ kind: "date", text: match[0], start: match.index, end: match.index + match[0].length, dates });
      rest = mask(rest, match.index, match.index + match[0].length);
    }
  }
  for (const match of rest.matchAll(timeOfDay)) rest = mask(rest, match.index, match.index + match[0].length);
  for (const match of rest.matchAll(idPattern)) {
    if (numberWithUnit.test(match[0]) || /^\d/.test(match[0])) continue;
    figures.push({ kind: "id", text: match[0], start: match.index, end: match.index + match[0].length, name: match[0] });
    rest = mask(rest, match.index, match.index + match[0].length);
  }
  for (const match of rest.matchAll(numberPattern)) figures.push(readNumber(rest, match));
  const quoted: Array<[number, number]> = [];
  for (const pattern of namePatterns) {
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
