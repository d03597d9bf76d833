import type { Figure } from "./read-figures.js";
import type { EvidenceNumber } from "./evidence.js";

/**
 * How a claimed number follows from the evidence: as shown, as a percentage of a ratio, or by
 * one of the small set of derivations from two shown values. Rounding to the precision the
 * claim was written with applies to all of them.
 */
export type Derivation = "value" | "percent" | "sum" | "difference" | "ratio" | "share" | "percent-change" | "points";

export interface NumberMatch {
  derivation: Derivation;
  operands: EvidenceNumber[];
}

export type Direction = "up" | "down" | undefined;

/** What the sentence says around a figure: its direction, and whether its words speak of a sum or a difference. */
export interface Wording {
  direction: Direction;
  /** "total", "combined", "in all": a plain figure may be a sum. */
  sums: boolean;
  /** "more", "fewer", "than", "other", a direction: a plain figure may be a difference. */
  differences: boolean;
}

/** Pairs are tried among all values up to this many; beyond it, only among values of one field. */
const allPairsUpTo = 40;

/** Whether `value` reads as the claim at the precision it was written with ("12.3%" holds 12.25 to 12.35, and 12.39 cut off). */
export function fits(claim: Figure, value: number): boolean {
  const written = claim.value!;
  let step = claim.precision!;
  if (claim.hedge !== undefined) step = Math.max(step, roundedStep(written, step));
  const slack = 1e-9 * Math.max(1, Math.abs(written));
  if (claim.hedge === "over") return value >= written - slack && value < written + step;
  if (claim.hedge === "under") return value <= written + slack && value > written - step;
  if (Math.abs(value - written) <= step / 2 + slack) return true;
  // A figure cut off instead of rounded: 3.456 written as 3.45 (a whole number is rounded, never cut off).
  if (step >= 1) return false;
  return written >= 0 ? value >= written - slack && value < written + step : value <= written + slack && value > written - step;
}

/** "about 1,200" is rounded to the hundred: one unit of its last non-zero digit. */
function roundedStep(written: number, precision: number): number {
  let units = Math.round(Math.abs(written) / precision);
  let step = precision;
  while (units > 0 && units % 10 === 0) {
    units /= 10;
    step *= 10;
  }
  return step;
}

/** Whether a signed change reads as the claim: "fell 12%" is a change of -12, "12%" alone either sign. */
function fitsChange(claim: Figure, change: number, direction: Direction): boolean {
  if (claim.value! < 0 || direction === undefined) return fits(claim, change) || (claim.value! >= 0 && fits(claim, -change));
  if (direction === "down" ? change > 0 : change < 0) return false;
  return fits(claim, Math.abs(change));
}

function direct(claim: Figure, pool: readonly EvidenceNumber[], direction: Direction): NumberMatch | undefined {
  // The closest value wins: "13" is the count of 13, not a refund of 13.22.
  let best: { number: EvidenceNumber; error: number } | undefined;
  for (const number of pool) {
    const { value } = number;
    // A fraction is not a percentage as it stands: 0.0612 is 6.12%, never 0.1%.
    if (claim.unit === "%" && Math.abs(value) < 1 && !/pct|percent/i.test(number.key)) continue;
    const shown = fits(claim, value)
      ? value
      : value < 0 && claim.value! > 0 && direction !== "up" && fits(claim, -value)
        ? -value
        : undefined;
    if (shown === undefined) continue;
    const error = Math.abs(shown - claim.value!);
    if (best === undefined || error < best.error) best = { number, error };
    if (error === 0) break;
  }
  if (best) return { derivation: "value", operands: [best.number] };
  if (claim.unit === "%" || claim.unit === "pp") {
    for (const number of pool) {
      if (Math.abs(number.value) <= 1 && fitsChange(claim, number.value * 100, direction))
        return { derivation: "percent", operands: [number] };
    }
  }
  return undefined;
}

/** The pairs worth trying: every pair of a small pool; of a large one, values of one field. */
function* pairs(pool: readonly EvidenceNumber[]): Generator<[EvidenceNumber, EvidenceNumber]> {
  const everyPair = pool.length <= allPairsUpTo;
  for (let first = 0; first < pool.length; first += 1) {
    for (let second = 0; second < pool.length; second += 1) {
      if (first === second) continue;
      const a = pool[first]!;
      const b = pool[second]!;
      if (everyPair || alike(a, b)) yield [a, b];
    }
  }
}

/** Like with like: two values of one field (this week's revenue and last week's), or a figure of the sentence itself. */
function alike(a: EvidenceNumber, b: EvidenceNumber): boolean {
  return a.key === b.key || a.source === "sentence" || b.source === "sentence";
}

/**
 * The derivations that can make a claim of this kind, from an ordered pair (a, b). A sum,
 * difference, change or points compare like with like; a share or a multiple may relate
 * any two values ("13 of 30 tickets, 43%").
 */
function derive(claim: Figure, [a, b]: [EvidenceNumber, EvidenceNumber], wording: Wording): Derivation | undefined {
  const { direction } = wording;
  const x = a.value;
  const y = b.value;
  const like = alike(a, b);
  if (claim.unit === "%") {
    if (y !== 0 && direction === undefined && Math.abs(x) <= Math.abs(y) && fits(claim, (x / y) * 100)) return "share";
    if (y !== 0 && like && fitsChange(claim, ((x - y) / Math.abs(y)) * 100, direction)) return "percent-change";
    return undefined;
  }
  if (claim.unit === "pp") {
    if (!like) return undefined;
    if (fitsChange(claim, x - y, direction)) return "points";
    if (Math.abs(x) <= 1 && Math.abs(y) <= 1 && fitsChange(claim, (x - y) * 100, direction)) return "points";
    return undefined;
  }
  if (claim.unit === "x") return y !== 0 && fits(claim, x / y) ? "ratio" : undefined;
  if (!like) return undefined;
  if (wording.sums && first(a, b) && fits(claim, x + y)) return "sum";
  if ((wording.differences || direction !== undefined) && fitsChange(claim, x - y, direction)) return "difference";
  return undefined;
}

/** Each unordered pair is tried once for a sum. */
function first(a: EvidenceNumber, b: EvidenceNumber): boolean {
  return `${a.source}:${a.path}` < `${b.source}:${b.path}`;
}

/**
 * How `claim` follows from `pool`, or undefined: a value shown (or its percentage), else a
 * derivation from two values. `pools.operands` is what derivations may combine (the values of
 * rows the sentence names, aggregates, scalars, and the sentence's own figures). A plain
 * figure is a sum or a difference only where the sentence's words say so.
 */
export function matchNumber(
  claim: Figure,
  pools: { direct: readonly EvidenceNumber[]; operands: readonly EvidenceNumber[] },
  wording: Wording,
): NumberMatch | undefined {
  const shown = direct(claim, pools.direct, wording.direction);
  if (shown) return shown;
  for (const pair of pairs(pools.operands)) {
    const derivation = derive(claim, pair, wording);
    if (derivation) return { derivation, operands: pair };
  }
  return undefined;
}
