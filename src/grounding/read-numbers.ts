import { isCurrency, leadingCurrency, trailingCurrency } from "./currency-marks.js";
import { localeMarks, localeOrder, readInLocale, type DigitToken, type LocaleMarks } from "./locale-marks.js";
import { readNumberWords } from "./number-words.js";
import type { Figure, Hedge, NumberUnit } from "./figure.js";

/**
 * Numbers as people write them: digits grouped and split the way the text's locale does
 * (`€1.234,50`, `1 234,50 €`, `CHF 1'234.50`, `₹12,34,567`), a currency before or after,
 * negatives (`-`, `−`, accounting parentheses), scales, percentages, and numbers in words.
 */

const tightSuffix = "%|×|x|k|K|M|m|mm|B|bn|mn|pp|pts?|bps";
const wordSuffix =
  "percent|per cent|percentage points?|points?|pp|pts?|basis points?|bps|thousand|million|billion|trillion|Mio\\.?|Mrd\\.?|lakhs?|crores?|cr|Cr|" +
  // The plural and other languages' words ("2,5 millions d'euros", "3 Millionen", "1,2 milliards").
  "millions|billions|Millionen|Milliarden|milliards?|millones|milioni|miliardi";
/** Digits with the marks people put between them; a plain space groups only three digits. */
const digits = (spaced: boolean) => `(\\d+(?:(?:[.,'’\\u00a0\\u202f]${spaced ? "|\\u0020(?=\\d{3}(?!\\d))" : ""})\\d+)*)`;
const numberPattern = (spaced: boolean) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}_.#/\\\\])(?<![\\p{L}_.#/\\\\]-)([-−+])?(?:(${leadingCurrency})[\\s\\u00a0]?)?([-−])?${digits(spaced)}` +
      `(?:(?:\\s?(%)|(${tightSuffix}))(?![\\p{L}\\p{N}_])|\\s(${wordSuffix})(?![\\p{L}\\p{N}_]))?` +
      `(?:[\\s\\u00a0\\u202f]?(${trailingCurrency})(?![\\p{L}\\p{N}_]))?(?![\\p{L}\\p{N}_]|[.,'’]\\d)`,
    "gu",
  );
const spacedNumbers = numberPattern(true);
const plainNumbers = numberPattern(false);

const scales: Record<string, number> = {
  k: 1e3,
  K: 1e3,
  thousand: 1e3,
  lakh: 1e5,
  lakhs: 1e5,
  crores: 1e7,
  cr: 1e7,
  Cr: 1e7,
  millions: 1e6,
  Millionen: 1e6,
  millones: 1e6,
  milioni: 1e6,
  billions: 1e9,
  Milliarden: 1e9,
  milliard: 1e9,
  milliards: 1e9,
  miliardi: 1e9,
  M: 1e6,
  // "€1.2m", "$5mm": finance writes millions in lower case too.
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  million: 1e6,
  Mio: 1e6,
  crore: 1e7,
  B: 1e9,
  bn: 1e9,
  billion: 1e9,
  Mrd: 1e9,
  trillion: 1e12,
  // A basis point is a hundredth of a percentage point.
  bps: 0.01,
  "basis point": 0.01,
  "basis points": 0.01,
};

function unitOf(suffix: string | undefined): NumberUnit | undefined {
  if (suffix === undefined) return undefined;
  if (suffix === "%" || /^per ?cent$/.test(suffix)) return "%";
  if (/^(pp|pts?|points?|percentage points?|bps|basis points?)$/.test(suffix)) return "pp";
  if (suffix === "x" || suffix === "×") return "x";
  return undefined;
}

const hedges: Array<[RegExp, Hedge]> = [
  [/(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|close to|~|≈)\s*$/i, "about"],
  [/(?:over|more than|above|at least|upwards of|in excess of|>)\s*$/i, "over"],
  [/(?:under|below|less than|fewer than|up to|at most|<)\s*$/i, "under"],
];

/** What stands before a value itself, not beside another figure: a colon, a table's bar, "was", "stood at". */
const valueStands = /(?:[:|=]|\b(?:was|were|is|are|stood at|came to|totall?ed|amounted to|reported|posted))\s*$/i;

function hedgeBefore(text: string, start: number): Hedge | undefined {
  const before = text.slice(Math.max(0, start - 24), start);
  return hedges.find(([pattern]) => pattern.test(before))?.[1];
}

function tokenOf(written: string): DigitToken {
  return { runs: written.split(/[^\d]/), marks: written.match(/[^\d]/g) ?? [] };
}

/** How a text writes its numbers, as far as its unambiguous ones tell: a locale, or undefined. */
export function inferLocale(text: string): string | undefined {
  const votes = new Map<string, number>();
  const order = localeOrder(undefined);
  // A number's vote depends on its digits and marks only: each way of writing is read once (a long answer repeats them).
  const voted = new Map<string, string | null>();
  for (const match of text.matchAll(spacedNumbers)) {
    const written = match[4]!;
    let locale = voted.get(written);
    if (locale === undefined) voted.set(written, (locale = voteOf(written, order)));
    if (locale !== null) votes.set(locale, (votes.get(locale) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [locale, count] of votes) if (best === undefined || count > votes.get(best)!) best = locale;
  return best;
}

/** The locale a number written so speaks for (null: none, or more than one decimal mark reads it). */
function voteOf(written: string, order: readonly LocaleMarks[]): string | null {
  const token = tokenOf(written);
  if (token.marks.length === 0) return null;
  const readings = order.filter((marks) => readInLocale(token, marks) !== undefined);
  const decimals = new Set(readings.map((marks) => marks.decimal));
  return decimals.size === 1 ? readings[0]!.locale : null;
}

/** The reading of a token in the first locale of `order` that writes it so. */
function readToken(token: DigitToken, order: readonly LocaleMarks[]) {
  for (const marks of order) {
    const reading = readInLocale(token, marks);
    // Written out, not spread: a spread followed by more fields is slow on Node 20.
    if (reading) return { value: reading.value, decimals: reading.decimals, marks };
  }
  return undefined;
}

interface ReadOptions {
  /** The locale the text is written in (an option, or what `inferLocale` found). */
  locale?: string | undefined;
  /** Read numbers written in words too ("fifteen"): an answer's, not a tool's strings (their parser is slow, and tools write digits). */
  words?: boolean | undefined;
}

/** The currencies written to three decimals (a dinar, a rial): "KWD 1.250" is one and a quarter. */
const threeDecimalCurrency = /\b(?:BHD|IQD|JOD|KWD|LYD|OMR|TND)\b/;
const fractionWord = /\b(?:thirds?|quarters?|fifths?|tenths?|half)\b/i;

/** Every number in `text` written in digits or words, in order. */
export function readNumbers(text: string, options: ReadOptions = {}): Figure[] {
  const order = localeOrder(options.locale);
  const spacedLocale = options.locale !== undefined && localeMarks(options.locale).groups.includes(" ");
  const figures: Figure[] = [];
  const readAll = (pattern: RegExp, from: number, to: number) => {
    pattern.lastIndex = from;
    for (let match = pattern.exec(text); match !== null && match.index < to; match = pattern.exec(text)) {
      const figure = readNumber(text, match, order);
      const written = match[4]!;
      const unconfirmed = written.includes(" ") && !spacedLocale && !figure?.currency && (figure?.decimals ?? 0) === 0;
      if (pattern === spacedNumbers && (figure === undefined || unconfirmed) && written.includes(" ")) {
        // "week 47 120 orders" is two numbers unless a decimal comma or a currency says it is one.
        readAll(plainNumbers, match.index, match.index + match[0].length);
        pattern.lastIndex = match.index + match[0].length;
        continue;
      }
      if (figure) figures.push(figure.figure);
    }
  };
  readAll(spacedNumbers, 0, text.length);
  for (const words of options.words === true ? readNumberWords(text) : []) {
    if (figures.some((figure) => figure.start < words.end && figure.end > words.start)) continue;
    const percent = /^\s*(?:%|percent|per cent)/i.exec(text.slice(words.end));
    const figure: Figure = { kind: "number", text: words.text, start: words.start, end: words.end, value: words.value, precision: 1 };
    // "Two thirds", "three quarters": a share, and a coarse one (read to five points: 68% is two thirds, 72% is not).
    if (fractionWord.test(words.text) && words.value < 1) Object.assign(figure, { value: words.value * 100, unit: "%", precision: 5 });
    else if (percent)
      Object.assign(figure, {
        unit: "%",
        text: text.slice(words.start, words.end + percent[0].length),
        end: words.end + percent[0].length,
      });
    const hedge = hedgeBefore(text, words.start);
    if (hedge) figure.hedge = hedge;
    figures.push(figure);
  }
  return joinRanges(
    text,
    figures.sort((a, b) => a.start - b.start),
  );
}

/**
 * "12–15%", "1,200-1,300", "between ¥60k and ¥70k": two figures that bound one range. "From
 * 120 to 137" is two figures, each checked alone (a change's two ends, not a range).
 */
const rangeBetween = /^\s*(?:[–—-]|and|to)\s*$/;
const rangeOpening = /between\s*$/i;
/** "Ranged from 3 to 12", "spanning 3 to 12": a spread's two ends, one range (a change's "from 40 to 55" is not). */
const spreadOpening = /\b(?:rang(?:e|es|ed|ing)|spann?(?:ed|ing|s)?|var(?:ied|ies|y|ying))\s+(?:from\s+)?$/i;

function joinRanges(text: string, figures: Figure[]): Figure[] {
  for (let index = 1; index < figures.length; index += 1) {
    const [low, high] = [figures[index - 1]!, figures[index]!];
    let between = text.slice(low.end, high.start);
    // "From 288 ms to 1,210 ms", "between 3 kg and 5 kg": a unit written after each bound.
    const unit = /^\s*(°?\p{L}{1,5})\s/u.exec(between)?.[1];
    if (unit !== undefined && !/^(?:and|to)$/i.test(unit) && text.startsWith(unit, high.end + (text[high.end] === " " ? 1 : 0)))
      between = between.replace(unit, "");
    if (!rangeBetween.test(between)) continue;
    if (/and/.test(between) && !rangeOpening.test(text.slice(Math.max(0, low.start - 12), low.start))) continue;
    if (/to/.test(between) && !spreadOpening.test(text.slice(Math.max(0, low.start - 20), low.start))) continue;
    // "12–15%": the first bound has the second's unit and scale unless it says its own.
    if (low.unit === undefined && high.unit !== undefined && high.unit !== "currency") low.unit = high.unit;
    if (/^-/.test(between.trim()) && high.value! < 0) high.value = -high.value!;
    const bounds: [number, number] = [Math.min(low.value!, high.value!), Math.max(low.value!, high.value!)];
    low.range = bounds;
    high.range = bounds;
  }
  return figures;
}

function readNumber(text: string, match: RegExpExecArray, order: readonly LocaleMarks[]) {
  const [, sign, leading, innerSign, written, percent, tight, word, trailing] = match;
  const moneyMark = (leading !== undefined && isCurrency(leading)) || (trailing !== undefined && isCurrency(trailing));
  // Money is not written to three decimals (but in a few currencies): "182.400 €" groups its digits, as German does.
  const grouped = moneyMark && /^\d{1,3}(?:\.\d{3})+$/.test(written!) && !threeDecimalCurrency.test(`${leading ?? ""} ${trailing ?? ""}`);
  const reading = readToken(
    tokenOf(written!),
    grouped ? [...order].sort((a, b) => Number(!a.groups.includes(".")) - Number(!b.groups.includes("."))) : order,
  );
  if (reading === undefined) return undefined;
  // The pattern takes any mark of a currency's shape; one that is none is left out of the figure.
  let whole = match[0];
  let start = match.index;
  const currency = leading !== undefined && isCurrency(leading) ? leading : undefined;
  const currencyWord = trailing !== undefined && isCurrency(trailing) ? trailing : undefined;
  if (leading !== undefined && currency === undefined) {
    const cut = whole.indexOf(leading) + leading.length;
    start += cut + (/^\s/.test(whole.slice(cut)) ? 1 : 0);
    whole = text.slice(start, match.index + whole.length);
    if (sign !== undefined) return undefined;
  }
  if (trailing !== undefined && currencyWord === undefined) whole = whole.slice(0, whole.lastIndexOf(trailing));
  const suffix = percent ?? tight ?? word?.replace(/\.$/, "");
  const money = currency ?? currencyWord;
  // A lower-case "m" is millions after a currency ("€1.2m"); alone it may be metres or minutes ("250m").
  const scale = suffix === undefined || (/^mm?$/.test(suffix) && money === undefined) ? 1 : (scales[suffix] ?? 1);
  const signs = `${sign ?? ""}${innerSign ?? ""}`;
  const end = start + whole.trimEnd().length;
  // Accounting style: "(1,234.50)" or "($1,200)" is a negative amount; "(27)" is an aside.
  const parenthesised =
    text[start - 1] === "(" && text[end] === ")" && (currency !== undefined || currencyWord !== undefined || /[.,'’ ]/.test(written!));
  const negative = signs.includes("-") || signs.includes("−") || parenthesised;
  const figure: Figure = {
    kind: "number",
    text: whole.trim(),
    start,
    end,
    value: (negative ? -reading.value : reading.value) * scale,
    precision: (reading.decimals > 0 ? 10 ** -reading.decimals : 1) * scale,
  };
  // "Net income: (1,200.00)", "| (1,200) |", "was ($1,200)": brackets where a value stands are accounting's minus, no aside.
  if (parenthesised && !valueStands.test(text.slice(Math.max(0, start - 24), start - 1))) figure.parenthesised = true;
  if (scale > 1) figure.scale = scale;
  const unit = money ? "currency" : unitOf(suffix);
  if (unit) figure.unit = unit;
  if (money) figure.currency = money;
  const hedge = hedgeBefore(text, start);
  if (hedge) figure.hedge = hedge;
  if (!suffix && !money && !signs && /^\d{4}$/.test(written!) && reading.value >= 1900 && reading.value <= 2100) figure.year = true;
  return { figure, currency: money, decimals: reading.decimals };
}
