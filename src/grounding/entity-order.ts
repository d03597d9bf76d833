import type { EvidenceNumber, SourceFacts } from "./evidence.js";

/**
 * Where folded sentence text first names the row or the entity object a value sits in ("Hamburg
 * sold €86,100 less than Cologne": Hamburg's row at 0, Cologne's further on), or -1. A
 * comparison between two entities runs from the one named first to the other.
 */
export function whereNamed(facts: SourceFacts, number: EvidenceNumber, folded: string): number {
  const names: string[] = [];
  if (number.table !== undefined && number.row !== undefined) names.push(...(facts.tables[number.table]?.labels[number.row] ?? []));
  for (const entity of facts.entities)
    if (number.path.startsWith(`${entity.path}.`)) names.push(entity.name, ...(entity.alias === undefined ? [] : [entity.alias]));
  let first = -1;
  for (const name of names) {
    const at = wordAt(folded, name);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

function wordAt(folded: string, name: string): number {
  for (let at = folded.indexOf(name); at !== -1; at = folded.indexOf(name, at + 1)) {
    const before = folded[at - 1];
    const after = folded[at + name.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return at;
  }
  return -1;
}

/** A name right after the figure before, by a preposition ("329 in October from 372"): that figure's. */
const ofFigureBefore = /^\s*\)?\s*(?:in|on|at|for|during|of|by|from)\s+(?:the\s+)?$/;

/**
 * The one named row of a table the words just before a figure name ("North brought in" before
 * "$98,000", "and South" before "$124,500", "North (" before "$124,500)"), if exactly one of them
 * is named there and no comma stands between its name and the figure; else undefined ("North and
 * South took $124,500 and $98,000" names two; "North led South, $124,500 to $98,000" has a comma).
 */
export function attachedRow(facts: SourceFacts, input: { table: number; rows: ReadonlySet<number> }, before: string): number | undefined {
  const labels = facts.tables[input.table]?.labels;
  if (labels === undefined) return undefined;
  let found: { row: number; at: number } | undefined;
  for (const row of input.rows) {
    for (const label of labels[row] ?? []) {
      const at = wordAt(before, label);
      // "Churn dropped to 329 in October from 372": "in October" is the figure before's.
      if (at === -1 || ofFigureBefore.test(before.slice(0, at))) continue;
      if (found !== undefined && found.row !== row) return undefined;
      if (found === undefined || at > found.at) found = { row, at: at + label.length };
    }
  }
  return found === undefined || /[,;]|\bthan\b/.test(before.slice(found.at)) ? undefined : found.row;
}

const parents = new WeakMap<SourceFacts, Map<string, string>>();

/** The parent of the entity object a value sits right in (`services` of `services.api.p95_ms`), if it sits in one. */
export function entityParent(facts: SourceFacts | undefined, path: string): string | undefined {
  if (facts === undefined) return undefined;
  let byPath = parents.get(facts);
  if (byPath === undefined) parents.set(facts, (byPath = new Map(facts.entities.map((entity) => [entity.path, entity.parent]))));
  const bare = path.replace(/ \(.*\)$/, "");
  const at = bare.lastIndexOf(".");
  return at === -1 ? undefined : byPath.get(bare.slice(0, at));
}
