/**
 * How people write the digits of a number in each locale the checker reads: the group mark,
 * the decimal mark and the sizes of the groups, learned from `Intl.NumberFormat` rather than
 * written by hand (en `1,234.5`, de `1.234,5`, fr `1 234,5`, de-CH `1'234.5`, en-IN `12,34,567.5`).
 */
export interface LocaleMarks {
  locale: string;
  /** The group marks people type for this locale: Intl's own, and its look-alikes (a space for a narrow space, `'` for `’`). */
  groups: readonly string[];
  decimal: string;
  /** The size of the last group ("567" in 12,34,567), and of the groups before it ("34"). */
  primary: number;
  secondary: number;
}

/** The locales read when a text says nothing of its own; a `locale` option may name any other. */
export const readLocales = ["en", "de", "fr", "it", "es", "de-CH", "en-IN"] as const;

const spaces = [" ", "\u00a0", "\u202f"];
const apostrophes = ["'", "’"];
const learned = new Map<string, LocaleMarks>();

/** The marks of `locale` as Intl formats 1234567.5 in it; throws a RangeError for a locale Intl does not know. */
export function localeMarks(locale: string): LocaleMarks {
  let marks = learned.get(locale);
  if (marks !== undefined) return marks;
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
  const integers = parts.filter((part) => part.type === "integer").map((part) => part.value);
  const group = parts.find((part) => part.type === "group")?.value ?? ",";
  const decimal = parts.find((part) => part.type === "decimal")?.value ?? ".";
  const lookAlikes = spaces.includes(group) ? spaces : apostrophes.includes(group) ? apostrophes : [group];
  marks = {
    locale,
    groups: lookAlikes,
    decimal,
    primary: integers.at(-1)?.length ?? 3,
    secondary: integers.length > 2 ? integers.at(-2)!.length : (integers.at(-1)?.length ?? 3),
  };
  learned.set(locale, marks);
  return marks;
}

/** A run of digits and the marks between them, as the reader found it: "1.234,50" is ["1", "234", "50"] and [".", ","]. */
export interface DigitToken {
  runs: readonly string[];
  marks: readonly string[];
}

/** What the token says in `marks`' locale: its value and how many decimals it was written with, or undefined if it is not how that locale writes. */
export function readInLocale(token: DigitToken, marks: LocaleMarks): { value: number; decimals: number } | undefined {
  const { runs } = token;
  const last = token.marks.length - 1;
  const hasDecimals = last >= 0 && token.marks[last] === marks.decimal && !marks.groups.includes(marks.decimal);
  const integers = hasDecimals ? runs.slice(0, -1) : runs;
  const groupMarks = hasDecimals ? token.marks.slice(0, -1) : token.marks;
  if (groupMarks.some((mark) => !marks.groups.includes(mark))) return undefined;
  if (integers.length > 1) {
    // One kind of group mark in one number: 1,234.567,890 is no number.
    if (new Set(groupMarks).size > 1) return undefined;
    const first = integers[0]!;
    if (integers.at(-1)!.length !== marks.primary) return undefined;
    if (integers.slice(1, -1).some((run) => run.length !== marks.secondary)) return undefined;
    if (first.length > (integers.length > 2 ? marks.secondary : Math.max(marks.secondary, marks.primary)) || first.startsWith("0"))
      return undefined;
  }
  const fraction = hasDecimals ? runs.at(-1)! : "";
  return { value: Number(`${integers.join("")}${fraction === "" ? "" : `.${fraction}`}`), decimals: fraction.length };
}

/**
 * The locales to read a token in, best first: the one named, then those that write decimals
 * the same way, then the rest of `readLocales`.
 */
export function localeOrder(locale: string | undefined): LocaleMarks[] {
  const all = readLocales.map(localeMarks);
  if (locale === undefined) return all;
  const named = localeMarks(locale);
  const alike = all.filter((marks) => marks.locale !== named.locale && marks.decimal === named.decimal);
  const rest = all.filter((marks) => marks.locale !== named.locale && marks.decimal !== named.decimal);
  return [named, ...alike, ...rest];
}
