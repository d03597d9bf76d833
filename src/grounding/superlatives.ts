import type { EvidenceNumber, SourceFacts } from "./evidence.js";
import type { Pools } from "./claim-pools.js";
import type { SentenceContext } from "./sentence-context.js";
import { periodNumber } from "./sentence-wording.js";

/**
 * Superlatives and ranks ("the largest", "the second-highest", "the gap between the highest and
 * the lowest"): which rows or sibling objects hold a column's extreme, and which figure of the
 * sentence the superlative speaks of.
 */

/** The place of the figure a superlative speaks of: the first number after it, else the last before it; -1 without one. */
export function superlativeFigure(context: SentenceContext): number {
  const at = context.words.superlativeAt;
  if (at < 0) return -1;
  let before = -1;
  for (const [place, figure] of context.figures.entries()) {
    // "The weakest week was week 44, with $61,250": the figure is the $61,250, not the week's number.
    if (figure.kind !== "number" || periodNumber(context.masked, figure)) continue;
    if (figure.start >= at) return place;
    before = place;
  }
  return before;
}

/** Whether the sentence has one number that is a figure (not a period's: "week 44"). */
export function oneFigure(context: SentenceContext): boolean {
  let count = 0;
  for (const figure of context.figures) if (figure.kind === "number" && !periodNumber(context.masked, figure)) count += 1;
  return count === 1;
}

const extremeCache = new WeakMap<SourceFacts, Map<string, Map<string, Set<string>>>>();

/**
 * Per column (`table:key`), the rows (`table:row`) that hold its largest (or smallest) value, or
 * its `rank`-th largest (smallest) of its distinct values ("the second-highest").
 */
export function extremesByColumn(facts: SourceFacts, which: "max" | "min", rank = 1): Map<string, Set<string>> {
  let cached = extremeCache.get(facts);
  if (cached === undefined) extremeCache.set(facts, (cached = new Map()));
  let columns = cached.get(`${which}${rank}`);
  if (columns !== undefined) return columns;
  const values = new Map<string, number[]>();
  for (const number of facts.numbers) {
    if (number.row === undefined || number.identifier) continue;
    const column = `${number.table}:${number.key}`;
    const held = values.get(column);
    if (held === undefined) values.set(column, [number.value]);
    else held.push(number.value);
  }
  const best = new Map<string, number>();
  for (const [column, held] of values) {
    const value = rankedValue(held, which, rank);
    if (value !== undefined) best.set(column, value);
  }
  columns = new Map();
  for (const number of facts.numbers) {
    const column = `${number.table}:${number.key}`;
    if (number.row === undefined || number.identifier || best.get(column) !== number.value) continue;
    const rows = columns.get(column) ?? new Set<string>();
    rows.add(`${number.table}:${number.row}`);
    columns.set(column, rows);
  }
  // A column where every row holds the extreme ("2026" of "2026-W44", "2026-W45") singles out no row.
  const rowsOf = new Map<number, Set<number>>();
  for (const number of facts.numbers)
    if (number.row !== undefined) rowsOf.set(number.table!, (rowsOf.get(number.table!) ?? new Set()).add(number.row));
  for (const [column, rows] of columns)
    if (rows.size === rowsOf.get(Number(column.slice(0, column.indexOf(":"))))?.size) columns.delete(column);
  cached.set(`${which}${rank}`, columns);
  return columns;
}

/** The largest (smallest) of the values, or the `rank`-th of their distinct values in that order. */
function rankedValue(values: readonly number[], which: "max" | "min", rank: number): number | undefined {
  if (rank === 1) return values.reduce((best, value) => (which === "max" ? Math.max(best, value) : Math.min(best, value)));
  const distinct = [...new Set(values)].sort((a, b) => (which === "max" ? b - a : a - b));
  return distinct[rank - 1];
}

/**
 * The rows a superlative may speak of: those holding the extreme of a column the sentence
 * names right after the superlative ("the highest operating profit"), or of any column when it
 * names none there ("the busiest day was …, with 17 orders").
 */
export function extremeRows(facts: SourceFacts, input: { which: "max" | "min"; named: ReadonlySet<string>; rank: number }): Set<string> {
  const columns = extremesByColumn(facts, input.which, input.rank);
  const namedColumns = [...columns].filter(([column]) => input.named.has(column.slice(column.indexOf(":") + 1)));
  return new Set((namedColumns.length > 0 ? namedColumns : [...columns]).flatMap(([, rows]) => [...rows]));
}

/** The object a value sits in (`regions.south` of `regions.south.revenue (×1e+3)`). */
export function entityOf(path: string): string {
  const bare = path.replace(/ \(.*\)$/, "");
  const at = bare.lastIndexOf(".");
  return at === -1 ? "" : bare.slice(0, at);
}

/**
 * The sibling entity objects a superlative may speak of: those holding the extreme of a
 * field the sentence names right after it, or of any field (a field every sibling ties on
 * singles out none), and every sibling that has such fields.
 */
export function extremeEntities(
  facts: SourceFacts,
  input: { which: "max" | "min"; named: ReadonlySet<string>; rank: number },
): { considered: Set<string>; holding: Set<string> } {
  const entities = new Set(facts.entities.map((entity) => entity.path));
  const parentOf = new Map(facts.entities.map((entity) => [entity.path, entity.parent]));
  const byField = new Map<string, Array<{ entity: string; value: number }>>();
  for (const number of facts.numbers) {
    if (number.row !== undefined || number.aggregate !== undefined || number.identifier || number.path.endsWith(")")) continue;
    const entity = entityOf(number.path);
    if (!entities.has(entity)) continue;
    const field = `${parentOf.get(entity)}\u0000${number.key}`;
    byField.set(field, [...(byField.get(field) ?? []), { entity, value: number.value }]);
  }
  const considered = new Set<string>();
  const holding = new Map<string, Set<string>>();
  for (const [field, values] of byField) {
    if (values.length < 2) continue;
    values.forEach((value) => considered.add(value.entity));
    const best = rankedValue(
      values.map((value) => value.value),
      input.which,
      input.rank,
    );
    const held = values.filter((value) => value.value === best);
    if (held.length < values.length) holding.set(field, new Set(held.map((value) => value.entity)));
  }
  const named = [...holding].filter(([field]) => input.named.has(field.slice(field.indexOf("\u0000") + 1)));
  return { considered, holding: new Set((named.length > 0 ? named : [...holding]).flatMap(([, held]) => [...held])) };
}

/** "The gap between the highest and the lowest revenue was $55,550": each column's largest less its smallest. */
export function extremesApart(found: Omit<Pools, "nearby">, facts: SourceFacts): void {
  const smallest = new Map<string, EvidenceNumber>();
  for (const number of facts.numbers) if (number.aggregate === "min") smallest.set(`${number.table}:${number.key}`, number);
  for (const number of facts.numbers) {
    const low = number.aggregate === "max" ? smallest.get(`${number.table}:${number.key}`) : undefined;
    if (low === undefined) continue;
    const path = `${number.path.replace(/ \(max(?=[,)])/, " (max − min")}`;
    found.direct.push({ source: facts.id, path, key: number.key, value: number.value - low.value });
  }
}
