import type { EvidenceNumber } from "./evidence.js";
import type { NumberMatch } from "./match-number.js";
import type { Figure } from "./read-figures.js";

/**
 * Ranges ("between 3 and 12", "12–15%", "ranged from $87,650 to $143,200"): a range of a
 * column's values, whose bounds are its ends, or an estimate of one value.
 */

/**
 * "Ranged", "spread", "spanned", and a range said of every row ("between 3 and 12 incidents
 * each", "every channel converted between 12% and 18%", "weekly revenue stayed between …"): a
 * range of a column's values, not an estimate of one value.
 */
export const spreadWords =
  /\b(?:rang(?:e|es|ed|ing)|spread|spann?(?:ed|ing|s)?|each|every|apiece|stayed|remained|varied|fluctuated|daily|weekly|monthly|(?:a|per) (?:day|week|month|quarter))\b/i;

/**
 * A range that spans a column ("between 3 and 12 incidents each": every row's value lies in it)
 * speaks of the column: its low bound is the column's smallest, its high bound its largest, at
 * the precision written (a round bound, "between ¥6,500 and ¥10,000", at its last non-zero
 * digit). So does a range of a column the sentence names whose one bound is that column's end
 * ("teams had between 3 and 12 incidents" when the fewest were 3: the other end, 14, is not 12).
 * Null when such a column exists and the bound is not its extreme; undefined when no column lies
 * within the range (the range is then an estimate: `withinRange`).
 */
export function rangeOverColumn(
  figure: Figure,
  pool: readonly EvidenceNumber[],
  reading: {
    spread: boolean;
    named: ReadonlySet<string>;
    /** The parent of the sibling entity object a value sits in (`services` of `services.api.p95_ms`): such siblings are rows too. */
    siblingsOf: (number: EvidenceNumber) => string | undefined;
  },
): NumberMatch | null | undefined {
  const [low, high] = figure.range!;
  const room = figure.precision! / 2;
  const scaled = (value: number) => (figure.unit === "%" && Math.abs(value) <= 1 ? value * 100 : value);
  const columns = new Map<string, EvidenceNumber[]>();
  for (const number of pool) {
    if (number.identifier === true || number.aggregate !== undefined) continue;
    const siblings = number.row === undefined ? reading.siblingsOf(number) : undefined;
    if (number.row === undefined && siblings === undefined) continue;
    const column = `${number.source}:${number.row === undefined ? `{${siblings}}` : number.table}:${number.key}`;
    const rows = columns.get(column);
    if (rows === undefined) columns.set(column, [number]);
    else rows.push(number);
  }
  const isLow = figure.value === low && low !== high;
  // "3–12" holds a column of 3.4 to 11.8 rounded; a bound written lower or higher than the extreme by less than a unit holds too.
  const holdsLow = (value: number) => (value >= low - room && value < low + 2 * room) || roundsTo(value, low, figure.precision!);
  const holdsHigh = (value: number) => (value <= high + room && value > high - 2 * room) || roundsTo(value, high, figure.precision!);
  let spanned = false;
  for (const rows of columns.values()) {
    if (rows.length < 2) continue;
    const smallest = rows.reduce((best, number) => (number.value < best.value ? number : best));
    const largest = rows.reduce((best, number) => (number.value > best.value ? number : best));
    const [min, max] = [scaled(smallest.value), scaled(largest.value)];
    const within = min >= low - room && max <= high + room;
    // "Incidents ranged 3–10": a spread speaks of a column's ends though the column is wider (its other end is then wrong).
    const ofColumn =
      within ||
      reading.spread ||
      (reading.named.has(smallest.key) && ((holdsLow(min) && high < max - room) || (holdsHigh(max) && low > min + room)));
    if (!ofColumn) continue;
    spanned = true;
    if (isLow ? holdsLow(min) : holdsHigh(max)) return { derivation: "range", operands: [isLow ? smallest : largest] };
  }
  return spanned ? null : undefined;
}

/**
 * "¥10,000" of 9,952.27, "¥6,500" of 6,544.15: a round bound (two zeros or more) holds a value
 * that rounds to it at its last non-zero digit; "10" of 12 is no round bound.
 */
function roundsTo(value: number, bound: number, precision: number): boolean {
  let unit = precision;
  while (bound !== 0 && Math.abs(Math.round(bound / (unit * 10)) * unit * 10 - bound) < precision / 2) unit *= 10;
  return unit >= 100 * precision && Math.abs(Math.round(value / unit) * unit - bound) < precision / 2;
}

/** Fields that hold percentages, rates or shares. */
const percentKey = /pct|percent|rate|share|ratio|proportion|margin|growth|change|conversion|churn|retention|yield/i;

/**
 * A bound of a range ("between 1,200 and 1,300") holds when a value shown lies in the range, at
 * the precision written: a value of the fields the sentence names, where it names some ("this
 * week's revenue was between ¥60k and ¥70k" is not last week's), and for a range of percentages,
 * a percentage or a fraction ("conversion was 12–15%" is not 13 signups).
 */
export function withinRange(figure: Figure, pool: readonly EvidenceNumber[], named: ReadonlySet<string>): NumberMatch | undefined {
  if (figure.range === undefined) return undefined;
  const [low, high] = figure.range;
  const room = figure.precision! / 2;
  const scaled = (value: number) => (figure.unit === "%" && Math.abs(value) <= 1 ? value * 100 : value);
  const candidates = figure.unit === "%" ? pool.filter((number) => Math.abs(number.value) <= 1 || percentKey.test(number.key)) : pool;
  const ofNamed = candidates.filter((number) => named.has(number.key));
  const inside = (ofNamed.length > 0 ? ofNamed : candidates).find(
    (number) => scaled(number.value) >= low - room && scaled(number.value) <= high + room,
  );
  return inside === undefined ? undefined : { derivation: "range", operands: [inside] };
}
