import type { EvidenceNumber } from "./evidence.js";
import type { Figure } from "./read-figures.js";
import { alike, derive, fitsWithin, type Wording } from "./derive.js";
import { allPairsUpTo } from "./pair-limit.js";
import type { NumberMatch } from "./derive.js";

/** One field's finite values, sorted, with each one's place in the pool, and where zero is. */
interface Field {
  values: Float64Array;
  places: Int32Array;
  /** The values below zero are [0, belowZero); those above it [aboveZero, length). */
  belowZero: number;
  aboveZero: number;
}

/** Places in a field: [from, to). */
type Span = readonly [number, number];

/** A derivation's result as a function of the second operand y, for one x: monotone wherever y keeps its sign. */
type Formula = (x: number, y: number) => number;

/**
 * Where a derivation's second operand may be: anywhere; not zero; not zero and at least as
 * large as the first (a share's whole); within [-1, 1] (points from two fractions).
 */
type Side = "any" | "nonzero" | "whole" | "fraction";

/** One derivation the claim may be: its formula, where y may be, and the results that may fit. */
interface Reach {
  formula: Formula;
  side: Side;
  windows: ReadonlyArray<readonly [number, number]>;
}

/**
 * `scanPairs` for a large pool, where only like values pair (values of one field, or a
 * figure of the sentence with anything): the same first pair, found without trying every
 * pair. A run of 2,000 steps pools some 30,000 values, and trying every pair of them took
 * over a minute for a figure no step shows (bench:event-loop: a block of 131 s). A field's
 * values are sorted once, when first needed; for a first operand x, each derivation the claim may be
 * is monotone in the second operand y on each side of zero, so the y that may fit lie in a
 * span found by binary search, and only those are tried with `derive` (which decides, as in
 * the scan). The sentence's own figures and values that are not finite are few: they are
 * tried in full. For a claim of a finite value; a property test holds it to `scanPairs`.
 */
export function searchPairs(
  claim: Figure,
  pool: readonly EvidenceNumber[],
  wording: Wording,
  /** The pool's first values when they are an array the caller passes again for other claims: its fields are sorted once. */
  shared?: readonly EvidenceNumber[],
): NumberMatch | undefined {
  const reached = reaches(claim, wording);
  // A small pool pairs every two values, as the scan does: one group holds them all.
  const everyPair = pool.length <= allPairsUpTo;
  const fieldOf = reached.length === 0 ? () => undefined : sortedFields(shared ?? pool, { everyPair, wording });
  const everywhere = pool.flatMap((number, place) => (number.source === "sentence" || !Number.isFinite(number.value) ? [place] : []));
  const derived = (first: number, second: number) =>
    first !== second && (everyPair || alike(pool[first]!, pool[second]!, wording))
      ? derive(claim, [pool[first]!, pool[second]!], wording)
      : undefined;
  for (let first = 0; first < pool.length; first += 1) {
    const x = pool[first]!.value;
    let best = -1;
    const consider = (second: number) => {
      if ((best === -1 || second < best) && derived(first, second)) best = second;
    };
    if (pool[first]!.source === "sentence" || !Number.isFinite(x)) {
      for (let second = 0; second < pool.length && best === -1; second += 1) consider(second);
    } else {
      for (const second of everywhere) consider(second);
      for (const group of everyPair ? ["all"] : groupsOf(pool[first]!, wording)) {
        const field = fieldOf(group);
        for (const reach of field === undefined ? [] : reached)
          for (const span of spansOf(field!, reach.side, x))
            for (const window of reach.windows) {
              const [from, to] = within(field!, span, { formula: reach.formula, x, window });
              for (let at = from; at < to; at += 1) consider(field!.places[at]!);
            }
      }
    }
    if (best !== -1) return { derivation: derived(first, best)!, operands: [pool[first]!, pool[best]!] };
  }
  return undefined;
}

/**
 * The groups a value's like values are in (`alike` pairs only within one): its field's, its
 * measure's (the field's name less its period), and the sentence's named fields' when it is one of them.
 */
function groupsOf(number: EvidenceNumber, wording: Wording): string[] {
  const groups = [`key:${number.key}`];
  if (number.stem !== undefined && number.period !== undefined) groups.push(`stem:${number.stem}`);
  if (wording.namedKeys?.has(number.key) === true) groups.push("named");
  return groups;
}

const sortedOnce = new WeakMap<readonly EvidenceNumber[], Map<boolean, (group: string) => Field | undefined>>();

/**
 * The fields of `values` (the whole pool, or its first values that other claims share), each
 * sorted once. The sentence's figures after them are tried in full (`everywhere`), so leaving
 * them out of the fields finds the same pairs.
 */
function sortedFields(values: readonly EvidenceNumber[], input: { everyPair: boolean; wording: Wording }) {
  let byMode = sortedOnce.get(values);
  if (byMode === undefined) sortedOnce.set(values, (byMode = new Map()));
  let fields = byMode.get(input.everyPair);
  if (fields === undefined) {
    fields = fieldsOf(values, (number) => (input.everyPair ? ["all"] : groupsOf(number, input.wording)));
    byMode.set(input.everyPair, fields);
  }
  return fields;
}

/** Each group of the pool (`groupsOf`), sorted when first asked for (a pair is often found among the first group's values). */
function fieldsOf(pool: readonly EvidenceNumber[], groups: (number: EvidenceNumber) => string[]): (group: string) => Field | undefined {
  const values = Float64Array.from(pool, (number) => number.value);
  const places = new Map<string, number[]>();
  pool.forEach((number, place) => {
    if (!Number.isFinite(number.value)) return;
    for (const group of groups(number)) {
      const list = places.get(group);
      if (list === undefined) places.set(group, [place]);
      else list.push(place);
    }
  });
  const fields = new Map<string, Field>();
  return (key) => {
    let field = fields.get(key);
    const list = places.get(key);
    if (field !== undefined || list === undefined) return field;
    const sorted = Int32Array.from(list).sort((a, b) => values[a]! - values[b]!);
    field = { values: Float64Array.from(sorted, (place) => values[place]!), places: sorted, belowZero: 0, aboveZero: 0 };
    field.belowZero = lowerBound(field, 0);
    field.aboveZero = upperBound(field, 0);
    fields.set(key, field);
    return field;
  };
}

const sum: Formula = (x, y) => x + y;
const difference: Formula = (x, y) => x - y;
const points: Formula = (x, y) => (x - y) * 100;
const ratio: Formula = (x, y) => x / y;
const share: Formula = (x, y) => (x / y) * 100;
const change: Formula = (x, y) => ((x - y) / Math.abs(y)) * 100;

/** The derivations `derive` may find for this claim and wording, each computed as `derive` computes it. */
function reaches(claim: Figure, wording: Wording): Reach[] {
  const room = fitsWithin(claim);
  const written = claim.value!;
  const shown = [[written - room, written + room]] as const;
  // A change may read either sign (see fitsChange): the windows its direction allows.
  const negative = [-written - room, -written + room] as const;
  const changed = written < 0 || wording.direction === "up" ? shown : wording.direction === "down" ? [negative] : [...shown, negative];
  if (claim.unit === "%") {
    const reached: Reach[] = [{ formula: change, side: "nonzero", windows: changed }];
    if (wording.direction === undefined || wording.shareOf === true) reached.push({ formula: share, side: "whole", windows: shown });
    return reached;
  }
  if (claim.unit === "pp")
    return [
      { formula: difference, side: "any", windows: changed },
      { formula: points, side: "fraction", windows: changed },
    ];
  if (claim.unit === "x") return [{ formula: ratio, side: "nonzero", windows: shown }];
  const reached: Reach[] = [];
  if (wording.perUnit === true) reached.push({ formula: ratio, side: "nonzero", windows: shown });
  if (wording.sums) reached.push({ formula: sum, side: "any", windows: shown });
  // A difference may take its direction from a comparative ("3 more") where the sentence has no verb of change.
  const towards = wording.direction ?? wording.comparative;
  const apart = written < 0 || towards === "up" ? shown : towards === "down" ? [negative] : [...shown, negative];
  if (wording.differences || towards !== undefined) reached.push({ formula: difference, side: "any", windows: apart });
  return reached;
}

/** Where y may be for a first operand x, as spans on one side of zero each (a formula with y / x is monotone there). */
function spansOf(field: Field, side: Side, x: number): Span[] {
  const { belowZero, aboveZero } = field;
  const length = field.values.length;
  if (side === "any") return [[0, length]];
  if (side === "nonzero")
    return [
      [0, belowZero],
      [aboveZero, length],
    ];
  if (side === "fraction") return Math.abs(x) <= 1 ? [[lowerBound(field, -1), upperBound(field, 1)]] : [];
  // A share is a part of a whole at least as large: |x| <= |y|.
  return [
    [0, Math.min(upperBound(field, -Math.abs(x)), belowZero)],
    [Math.max(lowerBound(field, Math.abs(x)), aboveZero), length],
  ];
}

/**
 * The places of `span` where the formula's result lies in the window. The formula is
 * monotone over the span (rising or falling, read from its ends); its rounding errors are far
 * smaller than the room `fitsWithin` leaves, so no value that may fit falls outside.
 */
function within(field: Field, span: Span, at: { formula: Formula; x: number; window: readonly [number, number] }): Span {
  const [start, end] = span;
  if (start >= end) return [start, start];
  const { formula, x } = at;
  const [low, high] = at.window;
  const result = (place: number) => formula(x, field.values[place]!);
  const rising = result(start) <= result(end - 1);
  const from = firstWhere(start, end, (place) => (rising ? result(place) >= low : result(place) <= high));
  const to = firstWhere(from, end, (place) => (rising ? result(place) > high : result(place) < low));
  return [from, to];
}

/** The first place in [from, to) where `holds` (false, then true), else `to`. */
function firstWhere(from: number, to: number, holds: (place: number) => boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The first place whose value is >= `value`. */
function lowerBound(field: { values: Float64Array }, value: number): number {
  return firstWhere(0, field.values.length, (place) => field.values[place]! >= value);
}

/** The first place whose value is > `value`. */
function upperBound(field: { values: Float64Array }, value: number): number {
  return firstWhere(0, field.values.length, (place) => field.values[place]! > value);
}
