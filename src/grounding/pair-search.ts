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
  const fieldOf = reached.length === 0 ? undefined : sortedFields(shared ?? pool, { everyPair, wording });
  const everywhere: number[] = [];
  for (let place = 0; place < pool.length; place += 1)
    if (pool[place]!.source === "sentence" || !Number.isFinite(pool[place]!.value)) everywhere.push(place);
  // Written as loops over places, with no closure or array made per value: a long answer tries millions of them.
  const search: Search = {
    claim,
    pool,
    wording,
    everyPair,
    reached,
    within: { start: 0, end: 0, formula: "sum", x: 0, low: 0, high: 0, rising: false },
  };
  // bestInField's arguments, set in place: with the for-of loops and the span objects this file had, a 1 MB answer of
  // figures no step shows allocated 1.55 GB, 0.48 GB of it here, and the collector's work was a third of its time.
  const at: InField = { field: undefined!, reach: undefined!, first: 0, best: -1 };
  for (let first = 0; first < pool.length; first += 1) {
    const x = pool[first]!.value;
    let best = -1;
    if (pool[first]!.source === "sentence" || !Number.isFinite(x)) {
      for (let second = 0; second < pool.length && best === -1; second += 1) best = better(search, first, second, best);
    } else {
      for (let other = 0; other < everywhere.length; other += 1) best = better(search, first, everywhere[other]!, best);
      const groups = everyPair ? allGroup : groupsOf(pool[first]!, wording);
      for (let group = 0; group < groups.length; group += 1) {
        const field = fieldOf?.(groups[group]!);
        if (field !== undefined)
          for (let reach = 0; reach < reached.length; reach += 1) {
            at.field = field;
            at.reach = reached[reach]!;
            at.first = first;
            at.best = best;
            best = bestInField(search, at);
          }
      }
    }
    if (best !== -1) return { derivation: derived(search, first, best)!, operands: [pool[first]!, pool[best]!] };
  }
  return undefined;
}

/** What one search holds fixed. */
interface Search {
  claim: Figure;
  pool: readonly EvidenceNumber[];
  wording: Wording;
  everyPair: boolean;
  reached: readonly Reach[];
  /** `bestInField`'s span, set in place for each one (see there). */
  within: Span;
}

/** Where `bestInField` looks: a field, a derivation, the first operand's place, and the best second place so far. */
interface InField {
  field: Field;
  reach: Reach;
  first: number;
  best: number;
}

const allGroup = ["all"];

function derived(search: Search, first: number, second: number) {
  const { pool, wording } = search;
  return first !== second && (search.everyPair || alike(pool[first]!, pool[second]!, wording))
    ? derive(search.claim, [pool[first]!, pool[second]!], wording)
    : undefined;
}

/** The earlier of `best` and `second`, if `second` derives the claim with `first`. */
function better(search: Search, first: number, second: number, best: number): number {
  if (best !== -1 && second >= best) return best;
  return mayReach(search, search.pool[first]!.value, search.pool[second]!.value) && derived(search, first, second) ? second : best;
}

/**
 * Whether some derivation the claim may be gives a result in its windows from (x, y): what
 * `derive` computes, without its checks of like with like. A pair with a figure of the
 * sentence is not found by the fields' binary search; most fail here, before `derive`.
 */
function mayReach(search: Search, x: number, y: number): boolean {
  // Indexed loops: a for-of with destructuring allocated here (see searchPairs).
  const { reached } = search;
  for (let at = 0; at < reached.length; at += 1) {
    const { formula, windows } = reached[at]!;
    const result = evaluate(formula, x, y);
    for (let window = 0; window < windows.length; window += 1)
      if (result >= windows[window]![0] && result <= windows[window]![1]) return true;
  }
  return false;
}

/** The earliest place of the field whose value, as y, may derive the claim by `reach` with x at `first`. */
function bestInField(search: Search, at: InField): number {
  const { field, reach, first } = at;
  const x = search.pool[first]!.value;
  let best = at.best;
  const { belowZero, aboveZero } = field;
  const length = field.values.length;
  // The search's one span object, set in place: no object or pair array per span and window (see searchPairs).
  const { within } = search;
  within.formula = reach.formula;
  within.x = x;
  // Where y may be, as spans on one side of zero each (a formula with y / x is monotone there).
  for (let span = 0; span < 2; span += 1) {
    let start = 0;
    let end = 0;
    if (reach.side === "any") end = span === 0 ? length : 0;
    else if (reach.side === "nonzero") {
      start = span === 0 ? 0 : aboveZero;
      end = span === 0 ? belowZero : length;
    } else if (reach.side === "fraction") {
      if (span === 0 && Math.abs(x) <= 1) {
        start = lowerBound(field, -1);
        end = upperBound(field, 1);
      }
    }
    // A share is a part of a whole at least as large: |x| <= |y|.
    else if (span === 0) end = Math.min(upperBound(field, -Math.abs(x)), belowZero);
    else {
      start = Math.max(lowerBound(field, Math.abs(x)), aboveZero);
      end = length;
    }
    if (start >= end) continue;
    within.end = end;
    for (let window = 0; window < reach.windows.length; window += 1) {
      within.start = start;
      within.rising = rises(field, within);
      within.low = reach.windows[window]![0];
      within.high = reach.windows[window]![1];
      const from = withinFrom(field, within);
      within.start = from;
      const to = withinTo(field, within);
      for (let place = from; place < to; place += 1) best = better(search, first, field.places[place]!, best);
    }
  }
  return best;
}

/** A span [start, end) of a field where the formula of x is monotone, and the window its result must reach. */
interface Span {
  start: number;
  end: number;
  formula: Formula;
  x: number;
  low: number;
  high: number;
  /** Whether the formula rises over the span (`rises`). */
  rising: boolean;
}

/**
 * The groups a value's like values are in (`alike` pairs only within one): its field's, its
 * measure's (the field's name less its period), and the sentence's named fields' when it is one of them.
 */
function groupsOf(number: EvidenceNumber, wording: Wording): readonly string[] {
  let groups = groupsKnown.get(number);
  if (groups === undefined) {
    const own = [`key:${number.key}`];
    if (number.stem !== undefined && number.period !== undefined) own.push(`stem:${number.stem}`);
    // A plan's field and the fields beside it (`planAndOutcome`), where the sentence speaks of a plan.
    const planned = number.table === undefined && number.aggregate === undefined ? `plan:${number.source}` : undefined;
    groups = { own, named: [...own, "named"], ownPlanned: planned === undefined ? own : [...own, planned] };
    groups.namedPlanned = planned === undefined ? groups.named : [...groups.named, planned];
    groupsKnown.set(number, groups);
  }
  const named = wording.namedKeys?.has(number.key) === true;
  if (wording.againstPlan === true) return named ? groups.namedPlanned! : groups.ownPlanned;
  return named ? groups.named : groups.own;
}

/** A value's groups, made once: they are asked for each value of each search. */
const groupsKnown = new WeakMap<
  EvidenceNumber,
  { own: readonly string[]; named: readonly string[]; ownPlanned: readonly string[]; namedPlanned?: readonly string[] }
>();

const sortedOnce = new WeakMap<readonly EvidenceNumber[], Map<string, (group: string) => Field | undefined>>();

/**
 * The fields of `values` (the whole pool, or its first values that other claims share), each sorted once, for the
 * fields the sentence names (the "named" group: sentences sharing a pool may name others). The sentence's figures
 * after them are tried in full (`everywhere`), so leaving them out of the fields finds the same pairs.
 */
function sortedFields(values: readonly EvidenceNumber[], input: { everyPair: boolean; wording: Wording }) {
  let byMode = sortedOnce.get(values);
  if (byMode === undefined) sortedOnce.set(values, (byMode = new Map()));
  const named = input.wording.namedKeys;
  let mode = input.everyPair ? "all" : named === undefined ? "" : namesKeys.get(named);
  if (mode === undefined) namesKeys.set(named!, (mode = [...named!].sort().join("\u0000")));
  let fields = byMode.get(mode);
  if (fields === undefined) {
    // With the plan's groups, whatever this wording: the fields are sorted once for every claim that shares them.
    const planned = { ...input.wording, againstPlan: true };
    fields = fieldsOf(values, (number) => (input.everyPair ? ["all"] : groupsOf(number, planned)));
    byMode.set(mode, fields);
  }
  return fields;
}

/** A sentence's named fields as one text, made once a set (a sentence's figures share it). */
const namesKeys = new WeakMap<ReadonlySet<string>, string>();

/** Each group of the pool (`groupsOf`), sorted when first asked for (a pair is often found among the first group's values). */
function fieldsOf(
  pool: readonly EvidenceNumber[],
  groups: (number: EvidenceNumber) => readonly string[],
): (group: string) => Field | undefined {
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

/** The formulas, by name: computed by `evaluate` (a switch, not a closure per call). */
type Formula = "sum" | "mean" | "difference" | "points" | "ratio" | "share" | "change";

function evaluate(formula: Formula, x: number, y: number): number {
  switch (formula) {
    case "sum":
      return x + y;
    case "mean":
      return (x + y) / 2;
    case "difference":
      return x - y;
    case "points":
      return (x - y) * 100;
    case "ratio":
      return x / y;
    case "share":
      return (x / y) * 100;
    case "change":
      return ((x - y) / Math.abs(y)) * 100;
  }
}

/** The derivations `derive` may find for this claim and wording, each computed as `derive` computes it. */
function reaches(claim: Figure, wording: Wording): Reach[] {
  // Between negative values a loss's direction is turned (`derive`): either window may hold it.
  const either = wording.magnitudes === true;
  const room = fitsWithin(claim);
  const written = claim.value!;
  const shown = [[written - room, written + room]] as const;
  // A change may read either sign (see fitsChange): the windows its direction allows.
  const negative = [-written - room, -written + room] as const;
  const changed =
    written < 0 || (wording.direction === "up" && !either)
      ? shown
      : wording.direction === "down" && !either
        ? [negative]
        : [...shown, negative];
  if (claim.unit === "%") {
    const reached: Reach[] = [{ formula: "change", side: "nonzero", windows: changed }];
    if (wording.direction === undefined || wording.shareOf === true) reached.push({ formula: "share", side: "whole", windows: shown });
    return reached;
  }
  if (claim.unit === "pp")
    return [
      { formula: "difference", side: "any", windows: changed },
      { formula: "points", side: "fraction", windows: changed },
    ];
  if (claim.unit === "x") return [{ formula: "ratio", side: "nonzero", windows: shown }];
  const reached: Reach[] = [];
  if (wording.perUnit === true) reached.push({ formula: "ratio", side: "nonzero", windows: shown });
  if (wording.sums) reached.push({ formula: "sum", side: "any", windows: shown });
  if (wording.averages === true) reached.push({ formula: "mean", side: "any", windows: shown });
  // A difference may take its direction from a comparative ("3 more") where the sentence has no verb of change.
  const towards = wording.direction ?? wording.comparative;
  const apart = written < 0 || (towards === "up" && !either) ? shown : towards === "down" && !either ? [negative] : [...shown, negative];
  if (wording.differences || towards !== undefined) reached.push({ formula: "difference", side: "any", windows: apart });
  return reached;
}

/** Whether the formula rises over [start, end) of the field, read from its ends (it is monotone there). */
function rises(field: Field, at: Span): boolean {
  return evaluate(at.formula, at.x, field.values[at.start]!) <= evaluate(at.formula, at.x, field.values[at.end - 1]!);
}

/**
 * The first place of [start, end) where the formula's result has reached the window. The
 * formula is monotone over the span; its rounding errors are far smaller than the room
 * `fitsWithin` leaves, so no value that may fit falls outside [withinFrom, withinTo).
 */
function withinFrom(field: Field, at: Span): number {
  const { start, end, formula, x, low, high, rising } = at;
  let lowest = start;
  let highest = end;
  while (lowest < highest) {
    const middle = (lowest + highest) >>> 1;
    const result = evaluate(formula, x, field.values[middle]!);
    if (rising ? result >= low : result <= high) highest = middle;
    else lowest = middle + 1;
  }
  return lowest;
}

/** The first place of [start, end) where the formula's result has passed the window. */
function withinTo(field: Field, at: Span): number {
  const { start, end, formula, x, low, high, rising } = at;
  let lowest = start;
  let highest = end;
  while (lowest < highest) {
    const middle = (lowest + highest) >>> 1;
    const result = evaluate(formula, x, field.values[middle]!);
    if (rising ? result > high : result < low) highest = middle;
    else lowest = middle + 1;
  }
  return lowest;
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
