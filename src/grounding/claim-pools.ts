import type { EvidenceNumber, SourceFacts } from "./evidence.js";
import type { Figure } from "./read-figures.js";
import type { RowOverride } from "./row-consistency.js";
import { shownIn } from "./match-number.js";
import { names } from "./row-consistency.js";
import { headTotalsNamed, namedKeys, type SentenceContext } from "./sentence-context.js";
import { entityOf, extremeEntities, extremeRows, extremesApart, extremesByColumn, oneFigure, superlativeFigure } from "./superlatives.js";

/** "order 57", "ticket #12", "item no. 3": a number called an identifier by the word just before it. */
const identifierContext =
  /(?:\bids?|\bno\.?|\bnumber|\border|\bticket|\brefund|\binvoice|\buser|\bcustomer|\bitem|\bproduct|\bzip(?: code)?|\baccount)\s*(?:#|no\.?|number)?\s*:?\s*$/i;

/** How many of the sentence's own figures on each side of a figure it may be derived with: the nearest, so the work stays linear. */
export const sentenceNeighbours = 3;

/** The values a figure may match directly, and those derivations may combine. */
export interface Pools {
  direct: EvidenceNumber[];
  operands: EvidenceNumber[];
  /** The sentence's own figures near this one (`sentenceNeighbours`). */
  nearby: EvidenceNumber[];
}

/**
 * What the figure at `place` may be matched with directly, and what derivations may combine.
 * Rows of a table the sentence names restrict that table to them, and objects of entities it
 * names ("North's revenue") leave out their siblings; the rows of other tables are matched
 * directly but not combined (a pair of random rows explains too much). Identifiers count only
 * where the sentence calls the number one ("order 57"). Under a superlative ("the largest …"),
 * a row's value counts only from a row that holds its column's extreme. A sum or an average of
 * several values counts where the sentence names what it adds up: the fields it names, or the rows.
 */
export function pools(
  place: number,
  input: { context: SentenceContext; sources: readonly SourceFacts[]; override?: RowOverride | undefined },
): Pools {
  const { context, sources, override } = input;
  const figure = context.figures[place]!;
  // A long whole number is an identifier wherever it stands: 4947717507 is no coincidence.
  const whole = Number.isInteger(figure.value) && figure.precision === 1 && figure.unit === undefined;
  const asIdentifier =
    (whole && identifierContext.test(context.masked.slice(Math.max(0, figure.start - 30), figure.start))) ||
    (whole && Math.abs(figure.value!) >= 10_000);

  // The steps' part is the same for every figure of the sentence: read once (the pair search sorts it once too).
  const rows = override === undefined ? "" : `${override.source}:${override.table}:${[...override.rows].join(",")}`;
  const superlative = place === superlativeFigure(context) ? context.words.superlative : undefined;
  const key = `${asIdentifier}:${rows}:${superlative ?? ""}`;
  let bySources = context.pools.get(sources);
  if (bySources === undefined) context.pools.set(sources, (bySources = new Map()));
  let found = bySources.get(key);
  if (found === undefined) {
    // Sentences that name the same things of the same steps share their pools (and the pair search's sorting of them).
    const shared = `${key}|${sources.map((facts) => `${facts.id}:${namingOnce(context, facts, superlative)}`).join("|")}`;
    const across = sharedPools(sources);
    found = across?.get(shared) ?? stepsPools({ context, sources, override, asIdentifier, superlative });
    if (across !== undefined && !across.has(shared)) {
      if (across.size >= sharedPoolsLimit) across.clear();
      across.set(shared, found);
    }
    bySources.set(key, found);
  }
  const steps = found;
  const nearby = nearestFigures(place, context.figures).map((other): EvidenceNumber => {
    const shows = shownOnce(steps, other, context);
    // A figure a step shows pairs with that step's value, at its scale ("$12.4m" of `revenue: 12.4`).
    const number: EvidenceNumber = { source: "sentence", path: other.text, key: "sentence", value: shows?.value ?? other.value! };
    if (shows !== undefined) number.shows = shows;
    return number;
  });
  // Written out, not spread: a spread followed by more fields is slow on Node 20 (see `claimOf`).
  return { direct: found.direct, operands: found.operands, nearby };
}

type StepsPools = Omit<Pools, "nearby">;

const sharedPoolsLimit = 2_000;
const poolsAcross = new WeakMap<SourceFacts, Map<string, StepsPools>>();

/** The pools shared by every sentence checked against these sources (keyed by the first: one map per step). */
function sharedPools(sources: readonly SourceFacts[]): Map<string, StepsPools> | undefined {
  const first = sources[0];
  if (first === undefined) return undefined;
  let shared = poolsAcross.get(first);
  if (shared === undefined) poolsAcross.set(first, (shared = new Map()));
  return shared;
}

/** `namingOf`, once a sentence per source and superlative: the sentence's row overrides (`blameLabels`) read it again. */
function namingOnce(context: SentenceContext, facts: SourceFacts, superlative: "max" | "min" | undefined): string {
  const known = context.memo.namings;
  const key = `${facts.id}\u0000${superlative ?? ""}`;
  let naming = known.get(key);
  if (naming === undefined) known.set(key, (naming = namingOf(context, facts, superlative)));
  return naming;
}

const groupsOfFacts = new WeakMap<SourceFacts, string[]>();

/** What a sentence names of one source, as far as `stepsPools` reads it: two sentences that name the same get the same pools. */
function namingOf(context: SentenceContext, facts: SourceFacts, superlative: "max" | "min" | undefined): string {
  let groups = groupsOfFacts.get(facts);
  if (groups === undefined)
    groupsOfFacts.set(
      facts,
      (groups = [...new Set(facts.numbers.flatMap((number) => (number.group === undefined ? [] : [number.group])))]),
    );
  const { words } = context;
  return [
    context
      .rowsNamed(facts)
      .map((rows) => [...rows].join(","))
      .join(";"),
    [...context.othersThanNamed(facts)].join(","),
    groups.filter((group) => namesGroup(context.folded, group)).join(","),
    words.sums || words.averages
      ? `${words.sums}${words.averages}${[...context.keysNamed(facts)].join(",")}:${[...namedEntities(facts, context.folded).keys()].join(",")}`
      : "",
    headTotalsNamed(facts, context.folded)
      .map((total) => total.head)
      .join(","),
    superlative === undefined
      ? ""
      : `${words.superlativeRank}:${oneFigure(context)}:${[...namedKeys(facts, words.superlativeOf)].join(",")}:${[...context.keysNamed(facts)].join(",")}`,
    words.extremesApart ? "apart" : "",
  ].join("/");
}

function stepsPools(input: {
  context: SentenceContext;
  sources: readonly SourceFacts[];
  override?: RowOverride | undefined;
  asIdentifier: boolean;
  /** The superlative the figure answers to, when it is the one the sentence's superlative speaks of. */
  superlative: "max" | "min" | undefined;
}): Omit<Pools, "nearby"> {
  const { context, sources, override, asIdentifier, superlative } = input;
  const found = { direct: [] as EvidenceNumber[], operands: [] as EvidenceNumber[] };
  for (const facts of sources) {
    let named = context.rowsNamed(facts);
    if (override?.source === facts.id) named = named.map((rows, table) => (table === override.table ? override.rows : rows));
    const others = context.othersThanNamed(facts);
    let before: Set<string> | undefined;
    const superlativeNamed = superlative === undefined ? undefined : namedKeys(facts, context.words.superlativeOf);
    // "Sales per employee were highest in Hamburg": the extreme of a rate no column holds is not checked, its figure is.
    const ofRate = superlativeNamed?.size === 0 && context.words.perUnit;
    const rank = context.words.superlativeRank;
    const extremes =
      superlative === undefined || ofRate ? undefined : extremeRows(facts, { which: superlative, named: superlativeNamed!, rank });
    const entityExtremes =
      superlative === undefined || ofRate ? undefined : extremeEntities(facts, { which: superlative, named: superlativeNamed!, rank });
    // "The weakest week was week 44, with $61,250 in revenue": no column right after the superlative, but the sentence's one
    // figure is of a column it names: that column's extreme (with more figures, any column's: "the busiest day, with 17 orders and ¥9,952").
    const ownColumns =
      extremes === undefined || superlativeNamed!.size > 0 || !oneFigure(context)
        ? undefined
        : { named: context.keysNamed(facts), rows: extremesByColumn(facts, superlative!, rank) };
    for (const number of facts.numbers) {
      if (number.identifier && !asIdentifier) continue;
      if (others.size > 0 && underAny(number.path, others)) continue;
      if (number.group !== undefined) {
        if (namesGroup(context.folded, number.group)) both(found, number);
        continue;
      }
      // "The largest revenue was South's" of `regions: { north, south }`: sibling objects are rows by another name.
      if (entityExtremes !== undefined && number.row === undefined && number.aggregate === undefined) {
        const entity = entityOf(number.path);
        if (entityExtremes.considered.has(entity) && !entityExtremes.holding.has(entity)) continue;
      }
      if (number.row === undefined) {
        // Once a sentence names some rows, the table's smallest, largest and mean are not what it speaks of.
        const ofNamedRows = number.table !== undefined && (named[number.table]?.size ?? 0) > 0;
        if (ofNamedRows && (number.aggregate === "min" || number.aggregate === "max" || number.aggregate === "mean")) continue;
        if (superlative !== undefined && number.aggregate !== undefined && number.aggregate !== superlative && number.aggregate !== "count")
          continue;
        // "The second-highest" is no column's largest.
        if (superlative !== undefined && rank > 1 && (number.aggregate === "max" || number.aggregate === "min")) continue;
        found.direct.push(number);
        if (!number.identifier) found.operands.push(number);
        continue;
      }
      if (extremes !== undefined) {
        const own = ownColumns?.named.has(number.key) === true ? ownColumns.rows.get(`${number.table}:${number.key}`) : undefined;
        if (!(own ?? extremes).has(`${number.table}:${number.row}`)) continue;
      }
      const rows = named[number.table!]!;
      if (rows.size === 0) {
        found.direct.push(number);
        if (!number.identifier) found.operands.push({ ...number, unnamedRow: true });
      } else if (rows.has(number.row)) both(found, number);
      // "Orders rose 25% in November": a change of a named period is against the period before it.
      else if (!number.identifier && (before ??= periodsBefore(facts, named, context.folded)).has(`${number.table}:${number.row}`))
        found.operands.push(number);
    }
    totalsOfNamed(found, { context, facts, named });
    if (context.words.extremesApart) extremesApart(found, facts);
  }
  totalOfNamedFields(found, { context, sources });
  return found;
}

/**
 * The rows (`table:row`) of the period just before the one row a table's sentence names, in tables whose rows are
 * periods (days, months, quarters, years): what a change of the named period is measured against.
 */
export function periodsBefore(facts: SourceFacts, named: ReadonlyArray<ReadonlySet<number>>, folded: string): Set<string> {
  const periods = new Map<string, { table: number; row: number; kind: string; rank: number }>();
  for (const number of facts.numbers)
    if (number.row !== undefined && number.period !== undefined)
      periods.set(`${number.table}:${number.row}`, { table: number.table!, row: number.row, ...number.period });
  const before = new Set<string>();
  for (const period of periods.values()) {
    // One period named ("in November"): two named are the change's own ends ("on the 20th, 64% above the 17th").
    const rows = named[period.table];
    if (rows === undefined || rows.size !== 1 || !rows.has(period.row)) continue;
    let previous: { key: string; rank: number } | undefined;
    let next: { key: string; rank: number } | undefined;
    for (const [key, other] of periods) {
      if (other.table !== period.table || other.kind !== period.kind) continue;
      if (other.rank < period.rank && (previous === undefined || other.rank > previous.rank)) previous = { key, rank: other.rank };
      if (other.rank > period.rank && (next === undefined || other.rank < next.rank)) next = { key, rank: other.rank };
    }
    if (previous !== undefined) before.add(previous.key);
    // "Peaked at 355 in week 45, then fell 16%": the period after the named one, for what came next.
    // "Up 17 on last week": a named "last week" is the base of a change to this week.
    if (next !== undefined && (thenWords.test(folded) || period.kind === "relative")) before.add(next.key);
  }
  return before;
}

/** Words of what came after: "then", "the week after", "the following week", "since". */
const thenWords = /\b(?:then|after|afterwards|following|next|since|later)\b/;

/** A label the rows share ("charge" of `type: "charge"`), named as it is or in the plural ("charges totalled"). */
function namesGroup(folded: string, group: string): boolean {
  return names(folded, group) || (/\p{L}$/u.test(group) && (names(folded, `${group}s`) || names(folded, `${group}es`)));
}

function both(found: Omit<Pools, "nearby">, number: EvidenceNumber): void {
  found.direct.push(number);
  if (!number.identifier) found.operands.push(number);
}

function underAny(path: string, prefixes: ReadonlySet<string>): boolean {
  for (let at = path.indexOf("."); at !== -1; at = path.indexOf(".", at + 1)) if (prefixes.has(path.slice(0, at))) return true;
  return prefixes.has(path);
}

/** The value of the steps' pool a figure of the sentence shows, looked for once per pool (a memo of the sentence's). */
function shownOnce(steps: { direct: readonly EvidenceNumber[] }, figure: Figure, context: SentenceContext): EvidenceNumber | undefined {
  let shown = context.memo.shown.get(figure);
  if (shown === undefined) context.memo.shown.set(figure, (shown = new Map()));
  if (!shown.has(steps)) shown.set(steps, shownIn(figure, steps.direct));
  return shown.get(steps);
}

/** The numbers of the sentence nearest the figure at `place`, up to `sentenceNeighbours` on each side. */
function nearestFigures(place: number, figures: readonly Figure[]): Figure[] {
  const near: Figure[] = [];
  for (let at = place - 1, taken = 0; at >= 0 && taken < sentenceNeighbours; at -= 1)
    if (figures[at]!.kind === "number") (near.push(figures[at]!), (taken += 1));
  for (let at = place + 1, taken = 0; at < figures.length && taken < sentenceNeighbours; at += 1)
    if (figures[at]!.kind === "number") (near.push(figures[at]!), (taken += 1));
  return near;
}

/**
 * "Orders, returns and exchanges came to 150 in all", "revenue averaged 1,000 over the two
 * weeks" (one field in each cited step): the sum (or mean) of the scalar fields the sentence
 * names, in one step or across the steps it cites.
 */
function totalOfNamedFields(found: Omit<Pools, "nearby">, input: { context: SentenceContext; sources: readonly SourceFacts[] }): void {
  const { context, sources } = input;
  const { sums, averages } = context.words;
  if (!sums && !averages) return;
  const scalars = sources.flatMap((facts) => {
    const keys = context.keysNamed(facts);
    return facts.numbers.filter(
      (number) => number.table === undefined && !number.identifier && keys.has(number.key) && !number.path.endsWith(")"),
    );
  });
  if (new Set(scalars.map((number) => `${number.source}\u0000${number.key}`)).size < 2) return;
  const total = scalars.reduce((sum, number) => sum + number.value, 0);
  const path = scalars.map((number) => `${number.source}:${number.path}`).join(" + ");
  const across = [...new Set(scalars.map((number) => number.source))];
  // Two values of two steps add up as a pair (a "sum" derivation, with both steps); a set's total is for three or more, or a mean.
  if (across.length > 1 && scalars.length < 3 && !averages) return;
  const from = { source: across[0]!, ...(across.length > 1 ? { sources: across } : {}), key: "named" };
  if (sums) found.direct.push({ ...from, path: `${path} (sum)`, value: total });
  if (averages) found.direct.push({ ...from, path: `${path} (mean)`, value: total / scalars.length });
}

/**
 * "Orders, returns and exchanges came to 150 in all", "North and South made ¥1,980 together",
 * "an average of 21 orders on those days": the sum (or mean) of the fields the sentence names,
 * or of a column over the rows it names, when it has words of a sum (or an average).
 */
function totalsOfNamed(
  found: Omit<Pools, "nearby">,
  input: { context: SentenceContext; facts: SourceFacts; named: ReadonlyArray<ReadonlySet<number>> },
): void {
  const { context, facts, named } = input;
  for (const total of context.words.whole ? headTotalsNamed(facts, context.folded) : [])
    both(found, { source: facts.id, path: `${total.keys.join(" + ")} (sum)`, key: total.head, value: total.sum });
  const { sums, averages } = context.words;
  if (!sums && !averages) return;
  const add = (values: number[], path: string, key: string) => {
    if (values.length < 2) return;
    const total = values.reduce((sum, value) => sum + value, 0);
    if (sums) found.direct.push({ source: facts.id, path: `${path} (sum)`, key, value: total });
    if (averages) found.direct.push({ source: facts.id, path: `${path} (mean)`, key, value: total / values.length });
  };
  const columns = new Map<string, number[]>();
  for (const number of facts.numbers) {
    if (number.row === undefined || number.identifier || !(named[number.table!]?.has(number.row) ?? false)) continue;
    const column = `${number.table}:${number.key}`;
    const values = columns.get(column);
    if (values === undefined) columns.set(column, [number.value]);
    else values.push(number.value);
  }
  for (const [column, values] of columns) add(values, `named rows of ${column}`, column.slice(column.indexOf(":") + 1));
  // "North, South and West made 2,860 together" of `regions: { north, south, west, east }`: sibling objects are rows too.
  const entities = namedEntities(facts, context.folded);
  if (entities.size < 2) return;
  const fields = new Map<string, number[]>();
  for (const number of facts.numbers) {
    if (number.row !== undefined || number.aggregate !== undefined || number.identifier || number.path.endsWith(")")) continue;
    const entity = entities.get(entityOf(number.path));
    if (entity === undefined) continue;
    const field = `${entity}\u0000${number.key}`;
    const values = fields.get(field);
    if (values === undefined) fields.set(field, [number.value]);
    else values.push(number.value);
  }
  for (const [field, values] of fields) {
    const [parent, key] = field.split("\u0000") as [string, string];
    if (values.length < [...entities.values()].filter((other) => other === parent).length) continue;
    add(values, `named objects of ${parent === "" ? "*" : parent}.${key}`, key);
  }
}

/** The entity objects (`regions.north`) the sentence names, each with its parent, where two or more siblings are named. */
function namedEntities(facts: SourceFacts, folded: string): Map<string, string> {
  const named = new Map<string, string>();
  for (const entity of facts.entities)
    if (names(folded, entity.name) || (entity.alias !== undefined && names(folded, entity.alias))) named.set(entity.path, entity.parent);
  return named;
}
