import type { EvidenceNumber } from "./evidence.js";
import type { Figure } from "./read-figures.js";

/** A claimed number found in the evidence: how it follows, and from which shown values. */
export interface NumberMatch {
  derivation: Derivation;
  operands: EvidenceNumber[];
}

/**
 * How a claimed number follows from the evidence: as shown, as a percentage of a ratio, or by
 * one of the small set of derivations from two shown values. Rounding to the precision the
 * claim was written with applies to all of them.
 */
export type Derivation = "value" | "percent" | "range" | "sum" | "mean" | "difference" | "ratio" | "share" | "percent-change" | "points";

export type Direction = "up" | "down" | undefined;

/** What the sentence says around a figure: its direction, and whether its words speak of a sum or a difference. */
export interface Wording {
  direction: Direction;
  /** "total", "combined", "in all": a plain figure may be a sum. */
  sums: boolean;
  /** "averaged", "an average of": a plain figure may be the mean of two like values. */
  averages?: boolean;
  /** "more", "fewer", "than", "other", a direction: a plain figure may be a difference. */
  differences: boolean;
  /** "a loss of", "an outflow": the figure right beside a word of loss stands for a negative value or a field of losses. */
  loss?: boolean;
  /** "12% of all tickets": the figure is followed by "of", a share of something. */
  shareOf?: boolean;
  /** Where the sentence first names a field, -1 if it does not (`SentenceText.keyAt`). */
  keyAt?: (key: string) => number;
  /** "per order", "each", "a head", "on average": a plain figure may be a ratio of two values. */
  perUnit?: boolean;
  /** "loss", "deficit", "fell": a figure written without a sign may stand for a negative value. */
  negative?: boolean;
  /** "The loss narrowed", "costs rose": words of loss in the figure's clause; a change between negative values is of their size. */
  magnitudes?: boolean;
  /** "3 more", "5 fewer": the direction of a difference written just after it. */
  comparative?: Direction;
  /** The fields of the cited steps the sentence names ("orders and returns"): they may pair though their names differ. */
  namedKeys?: ReadonlySet<string>;
  /** Where "than" stands after a comparative ("3 more … than"): what is named after it is the base. */
  thanAt?: number;
  /** "Under budget", "beat quota": the sentence speaks of a plan, whose fields pair with what happened (`planAndOutcome`). */
  againstPlan?: boolean;
  /** Where the sentence names the row or entity a value is of, -1 if it does not (`whereNamed`). */
  namedAt?: (number: EvidenceNumber) => number;
}

/** Whether `value` reads as the claim at the precision it was written with ("12.3%" holds 12.25 to 12.35, and 12.39 cut off). */
export function fits(claim: Figure, value: number): boolean {
  const written = claim.value!;
  const step = stepOf(claim);
  const slack = 1e-9 * Math.max(1, Math.abs(written));
  if (claim.hedge === "over") return value >= written - slack && value < written + step;
  if (claim.hedge === "under") return value <= written + slack && value > written - step;
  if (Math.abs(value - written) <= step / 2 + slack) return true;
  // A figure cut off instead of rounded: 3.456 written as 3.45 (a whole number is rounded, never cut off).
  if (step >= 1) return false;
  return written >= 0 ? value >= written - slack && value < written + step : value <= written + slack && value > written - step;
}

/** How far from the written value `fits` may reach: every value that fits lies within this of it (with room to spare). */
export function fitsWithin(claim: Figure): number {
  return 2 * (stepOf(claim) + 1e-9 * Math.max(1, Math.abs(claim.value!)));
}

/** One unit of the last digit written; "about 1,200" is rounded to the hundred: one unit of its last non-zero digit. */
function stepOf(claim: Figure): number {
  const precision = claim.precision!;
  if (claim.hedge === undefined) return precision;
  let units = Math.round(Math.abs(claim.value!) / precision);
  let step = precision;
  while (units > 0 && units % 10 === 0) {
    units /= 10;
    step *= 10;
  }
  // "About 1,000" is not 1,205: a hedge reaches a tenth of the value at most, however round the number.
  return Math.max(precision, Math.min(step, 0.2 * Math.abs(claim.value!)));
}

/** Whether a signed change reads as the claim: "fell 12%" is a change of -12, "12%" alone either sign. */
export function fitsChange(claim: Figure, change: number, direction: Direction): boolean {
  if (claim.value! < 0 || direction === undefined) return fits(claim, change) || (claim.value! >= 0 && fits(claim, -change));
  if (direction === "down" ? change > 0 : change < 0) return false;
  return fits(claim, Math.abs(change));
}

/**
 * Like with like, for a sum, a difference, a change or points: two values of one field (this
 * week's revenue in one step and last week's in another), one measure in two periods
 * (`revenue_this_week`, `revenue_last_week`), two fields the sentence names ("orders and
 * returns"), or a figure of the sentence itself. Never a column's smallest, largest or mean:
 * a change between them is no change that happened.
 */
export function alike(a: EvidenceNumber, b: EvidenceNumber, wording: Pick<Wording, "namedKeys" | "againstPlan">): boolean {
  if (a.source === "sentence" && b.source === "sentence") return true;
  // A figure of the sentence pairs as the value it shows does; one no step shows pairs only with the sentence's own.
  if (a.source === "sentence") return a.shows !== undefined && measuresAlike(a.shows, b, wording);
  if (b.source === "sentence") return b.shows !== undefined && measuresAlike(a, b.shows, wording);
  // Two rows of a table the sentence does not name are never combined (two random rows explain too much).
  if (a.unnamedRow === true || b.unnamedRow === true) return false;
  return measuresAlike(a, b, wording);
}

function measuresAlike(a: EvidenceNumber, b: EvidenceNumber, wording: Pick<Wording, "namedKeys" | "againstPlan">): boolean {
  if (summary(a) || summary(b)) return false;
  if (a.key === b.key) return true;
  if (a.stem !== undefined && a.stem === b.stem && a.period !== undefined && b.period !== undefined) return true;
  // A value at a field's stated scale (`revenue_usd_m` in millions) pairs only with another so scaled.
  if (a.key.includes(" ×") !== b.key.includes(" ×")) return false;
  if (wording.againstPlan === true && planAndOutcome(a, b)) return true;
  return wording.namedKeys !== undefined && wording.namedKeys.has(a.key) && wording.namedKeys.has(b.key);
}

/**
 * "Spending came in $3,500 under budget" of `{ budget_usd, spent_usd }`, "sales beat quota by 7%"
 * of `{ quota, closed_deals }`: where the sentence speaks of a plan, a plan's field pairs with
 * another field of its output, what happened.
 */
export function planAndOutcome(a: EvidenceNumber, b: EvidenceNumber): boolean {
  const planned = (number: EvidenceNumber) => number.period?.kind === "plan" && number.period.rank === 0;
  return (
    a.source === b.source &&
    a.table === undefined &&
    b.table === undefined &&
    a.aggregate === undefined &&
    b.aggregate === undefined &&
    planned(a) !== planned(b) &&
    a.period?.kind !== b.period?.kind
  );
}

/** A column's smallest, largest or mean. */
function summary(number: EvidenceNumber): boolean {
  return number.aggregate === "min" || number.aggregate === "max" || number.aggregate === "mean";
}

/** A change runs from the earlier value to the later: (a, b) is read as "a, against b", so a must not be the earlier. */
function laterFirst(a: EvidenceNumber, b: EvidenceNumber): boolean {
  const [later, earlier] = [(a.shows ?? a).period, (b.shows ?? b).period];
  // "$3,500 under budget": from the plan to what happened, whatever the other is called.
  if (later?.kind === "plan" && later.rank === 0 && earlier?.kind !== "plan") return false;
  return later === undefined || earlier === undefined || later.kind !== earlier.kind || later.rank >= earlier.rank;
}

/**
 * The derivations that can make a claim of this kind, from an ordered pair (a, b). A sum,
 * difference, change or points compare like with like (`alike`), and a change is read from
 * the earlier period to the later where the values say which is which; a share or a multiple
 * may relate any two values ("13 of 30 tickets, 43%").
 */
export function derive(claim: Figure, [a, b]: readonly [EvidenceNumber, EvidenceNumber], wording: Wording): Derivation | undefined {
  const x = a.value;
  const y = b.value;
  // "The operating loss narrowed 25%" from -0.4 to -0.3: a loss's words speak of its size, which falls as the value rises.
  const ofSize = wording.magnitudes === true && x < 0 && y < 0;
  const direction = ofSize ? opposite(wording.direction) : wording.direction;
  // Rows of a table the sentence names none of pair with the sentence's own figures only, for a share or a rate too.
  if ((a.unnamedRow === true || b.unnamedRow === true) && a.source !== "sentence" && b.source !== "sentence") return undefined;
  const like = alike(a, b, wording) && ofNamedFields(a, b, wording);
  const ordered = like && laterFirst(a, b) && inOrderNamed(a, b, wording);
  if (claim.unit === "%") {
    if (
      y !== 0 &&
      (direction === undefined || wording.shareOf === true) &&
      samePeriod(a, b) &&
      wholeNamed(b, wording) &&
      partNamed(a, b, wording) &&
      Math.abs(x) <= Math.abs(y) &&
      fits(claim, (x / y) * 100)
    )
      return "share";
    // A column's total against one of its rows is a share, never a change ("12, 75% of the total" is not 21 over 12).
    if (y !== 0 && ordered && !partAndWhole(a, b) && fitsChange(claim, ((x - y) / Math.abs(y)) * 100, direction)) return "percent-change";
    return undefined;
  }
  if (claim.unit === "pp") {
    if (!ordered) return undefined;
    if (fitsChange(claim, x - y, direction)) return "points";
    if (Math.abs(x) <= 1 && Math.abs(y) <= 1 && fitsChange(claim, (x - y) * 100, direction)) return "points";
    return undefined;
  }
  // A column's sum over its mean is its row count, no multiple anyone wrote.
  if (a.aggregate !== undefined && b.aggregate !== undefined && a.key === b.key && a.table === b.table && a.aggregate !== b.aggregate)
    if ((a.aggregate === "sum" && b.aggregate === "mean") || (a.aggregate === "mean" && b.aggregate === "sum")) return undefined;
  // "2x the incidents of Platform", "LTV is 3x CAC": a multiple compares like with like, or two fields the sentence names.
  // Where the sentence names a measure ("the incidents"), the multiple is of that measure.
  if (claim.unit === "x")
    return like && y !== 0 && !partAndWhole(a, b) && ofNamedMeasure(a, b, wording) && fits(claim, x / y) ? "ratio" : undefined;
  // "$250 per shipment": a rate relates any two values, as a share does.
  if (wording.perUnit === true && y !== 0 && samePeriod(a, b) && fits(claim, x / y)) return "ratio";
  if (!like) return undefined;
  if (wording.sums && first(a, b) && addendsNamed(a, b, wording) && fits(claim, x + y)) return "sum";
  // "North and South made 2,100 together, an average of 1,050": the mean of two like values, as their sum.
  if (wording.averages === true && first(a, b) && addendsNamed(a, b, wording) && fits(claim, (x + y) / 2)) return "mean";
  const towards = direction ?? (ofSize ? opposite(wording.comparative) : wording.comparative);
  if (ordered && (wording.differences || towards !== undefined) && fitsChange(claim, x - y, towards)) return "difference";
  return undefined;
}

/**
 * "We closed 28 more tickets than we opened", "leavers exceeded hires by 12": where the sentence
 * names two or more fields, a pair of values of another measure (the backlog's start and end,
 * the headcount's opening and closing) is not what it compares.
 */
function ofNamedFields(a: EvidenceNumber, b: EvidenceNumber, wording: Pick<Wording, "namedKeys">): boolean {
  const named = wording.namedKeys;
  if (named === undefined || named.size < 2) return true;
  const [one, other] = [a.shows ?? a, b.shows ?? b];
  if (one.source === "sentence" || other.source === "sentence" || one.aggregate !== undefined || other.aggregate !== undefined) return true;
  return named.has(one.key) || named.has(other.key);
}

/** "Q1 and Q2 revenue came to $4.89m together": where the sentence names the fields it adds, each field added is one of them. */
function addendsNamed(a: EvidenceNumber, b: EvidenceNumber, wording: Pick<Wording, "namedKeys">): boolean {
  const named = wording.namedKeys;
  const [one, other] = [a.shows ?? a, b.shows ?? b];
  if (named === undefined || named.size < 2 || one.source === "sentence" || other.source === "sentence" || one.key === other.key)
    return true;
  return named.has(one.key) && named.has(other.key);
}

/**
 * "App orders were 34.9% of all orders" (`web_orders + app_orders + phone_orders`): where the
 * sentence names one of a total's fields, another of them (`web_orders`) is not the part.
 */
function partNamed(part: EvidenceNumber, whole: EvidenceNumber, wording: Pick<Wording, "namedKeys">): boolean {
  const named = wording.namedKeys;
  const shown = part.shows ?? part;
  const total = whole.shows ?? whole;
  if (named === undefined || named.size === 0 || shown.source === "sentence" || named.has(shown.key)) return true;
  if (!total.path.endsWith(" (sum)") || !total.path.includes(" + ")) return true;
  const fields = total.path
    .slice(0, -" (sum)".length)
    .split(" + ")
    .map((path) => path.slice(path.lastIndexOf(":") + 1));
  return !fields.some((field) => field !== shown.path && named.has(field));
}

/** "12% of all tickets": the whole is what the sentence names after "of" (a field, a total, the sentence's own figure). */
function wholeNamed(whole: EvidenceNumber, wording: Pick<Wording, "shareOf" | "namedKeys">): boolean {
  if (wording.shareOf !== true || whole.source === "sentence") return true;
  return whole.aggregate !== undefined || whole.path.endsWith("(sum)") || (wording.namedKeys?.has(whole.key) ?? false);
}

/** A share or a rate relates values of one period: this month's spend over last month's leads is no cost per lead. */
function samePeriod(a: EvidenceNumber, b: EvidenceNumber): boolean {
  const [one, other] = [(a.shows ?? a).period, (b.shows ?? b).period];
  // What was spent over what was budgeted is a share of one period ("we spent 84% of the budget").
  return one === undefined || other === undefined || one.kind !== other.kind || one.rank === other.rank || one.kind === "plan";
}

function ofNamedMeasure(a: EvidenceNumber, b: EvidenceNumber, wording: Pick<Wording, "namedKeys">): boolean {
  const named = wording.namedKeys;
  if (named === undefined || named.size === 0) return true;
  return [a.shows ?? a, b.shows ?? b].some((number) => number.source !== "sentence" && named.has(number.key));
}

function partAndWhole(a: EvidenceNumber, b: EvidenceNumber): boolean {
  const [one, other] = [a.shows ?? a, b.shows ?? b];
  return (
    one.table !== undefined &&
    one.table === other.table &&
    one.source === other.source &&
    (one.aggregate === "sum") !== (other.aggregate === "sum")
  );
}

/**
 * "Costs exceeded revenue by 1,200": a change between two fields of no period, with a
 * direction, runs from the field named first (costs) to the other; without a direction
 * ("the gap between revenue and costs") either way.
 */
function inOrderNamed(a: EvidenceNumber, b: EvidenceNumber, wording: Wording): boolean {
  const [one, other] = [a.shows ?? a, b.shows ?? b];
  if (wording.keyAt === undefined || (wording.direction ?? wording.comparative) === undefined) return true;
  if (one.source === "sentence" || other.source === "sentence") return true;
  // "Hamburg sold 86,100 less than Cologne": one field of two entities, from the one named first.
  if (one.key === other.key) return entitiesInOrder(one, other, wording);
  if (one.period !== undefined || other.period !== undefined) return true;
  const [first, second] = [wording.keyAt(one.key), wording.keyAt(other.key)];
  return first === -1 || second === -1 || first < second;
}

/** "Hamburg sold 86,100 less than Cologne": the entity after "than" is what the other is measured against. */
function entitiesInOrder(one: EvidenceNumber, other: EvidenceNumber, wording: Wording): boolean {
  const { namedAt, thanAt } = wording;
  if (namedAt === undefined || thanAt === undefined || one.period !== undefined || other.period !== undefined) return true;
  const [first, second] = [namedAt(one), namedAt(other)];
  return first === -1 || second === -1 || (first < thanAt && second > thanAt);
}

function opposite(direction: Direction): Direction {
  return direction === "up" ? "down" : direction === "down" ? "up" : undefined;
}

/** Each unordered pair is tried once for a sum. */
function first(a: EvidenceNumber, b: EvidenceNumber): boolean {
  return `${a.source}:${a.path}` < `${b.source}:${b.path}`;
}
