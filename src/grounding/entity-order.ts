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
