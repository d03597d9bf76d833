import type { CheckedClaim } from "./claim-report.js";
import type { SourceFacts } from "./evidence.js";
import type { Derivation } from "./match-number.js";
import type { Figure } from "./read-figures.js";
import { citationOf } from "./split-sentences.js";

/** Whether folded text names `label` as a whole word or phrase. */
export function names(folded: string, label: string): boolean {
  for (let at = folded.indexOf(label); at !== -1; at = folded.indexOf(label, at + 1)) {
    const before = folded[at - 1];
    const after = folded[at + label.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return true;
  }
  return false;
}

/**
 * The rows of each of a source's tables the sentence names by one of their labels. "Week on
 * week", "year over year", "sequentially" with no row named speak of a table of periods' latest
 * row (and, as a change, of the row before it).
 */
export function namedRows(facts: SourceFacts, sentence: string): Array<Set<number>> {
  const folded = withWeeksListed(sentence);
  const onPrevious = periodOnPeriod.test(folded);
  return facts.tables.map(({ labels }, table) => {
    // "Ana Souza won $48,000": the rows that hold the most of the labels named (hers that were won), not every row of either.
    const counts = labels.map((row) => new Set(row.filter((label) => names(folded, label))).size);
    const most = Math.max(0, ...counts);
    const rows = new Set<number>();
    counts.forEach((count, index) => {
      if (count > 0 && count === most) rows.add(index);
    });
    const latest = rows.size === 0 && onPrevious ? latestRow(facts, table) : undefined;
    if (latest !== undefined) rows.add(latest);
    return rows;
  });
}

/** "Weeks 46 and 47", "weeks 44–47": each week named as "week 46" is (the text the rows' labels are looked for in). */
function withWeeksListed(folded: string): string {
  if (!/\bweeks\s+\d/.test(folded)) return folded;
  const named: string[] = [];
  for (const match of folded.matchAll(/\bweeks\s+(\d{1,2})\s*(?:[–—-]|to|through)\s*(\d{1,2})\b/g))
    for (let week = Number(match[1]); week <= Number(match[2]) && week - Number(match[1]) < 53; week += 1) named.push(`week ${week}`);
  for (const match of folded.matchAll(/\bweeks\s+\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})+/g))
    for (const week of match[0].matchAll(/\d{1,2}/g)) named.push(`week ${Number(week[0])}`);
  return named.length === 0 ? folded : `${folded}\n${named.join("\n")}`;
}

/** "Week on week", "yoy", "on the previous week", "compared with the prior month": the latest row against the one before. */
const periodOnPeriod =
  /\b(?:(?:day|week|month|quarter|year)[- ](?:on|over)[- ](?:day|week|month|quarter|year)|wow|dod|mom|qoq|yoy|sequentially|(?:on|over|from|than|versus|vs\.?|against|compared (?:with|to)|since) the (?:previous|prior|preceding) (?:day|week|month|quarter|year))\b/;

/** The row of a table of periods whose period is the latest, if its rows are periods. */
function latestRow(facts: SourceFacts, table: number): number | undefined {
  let latest: { row: number; rank: number; kind: string } | undefined;
  for (const number of facts.numbers) {
    if (number.table !== table || number.row === undefined || number.period === undefined) continue;
    if (latest !== undefined && latest.kind !== number.period.kind) return undefined;
    if (latest === undefined || number.period.rank > latest.rank) latest = { row: number.row, ...number.period };
  }
  return latest?.row;
}

/** Rows to use instead of those a sentence names, per source and table. */
export type RowOverride = { source: string; table: number; rows: ReadonlySet<number> };

/** How the checker tries a figure again with other rows (see `blameLabels`). */
export type Refit = (
  figure: Figure,
  override: RowOverride,
) => { steps: string[]; matched: CheckedClaim["matched"]; derivation?: Derivation } | undefined;

/**
 * When a sentence names rows ("the busiest day was 2026-11-21") and none of its figures
 * holds on them, but all of them hold once one named row is swapped for another, the figures
 * are true and the label is what is wrong: the figures become supported by that row and the
 * label unsupported, saying which row holds the figures. One figure alone blames a label only
 * when it is derived from two rows (a change between two days); otherwise either could be wrong.
 */
export function blameLabels(
  claims: CheckedClaim[],
  input: {
    figures: readonly Figure[];
    /** The rows of a source's tables the sentence names (`namedRows` of the sentence). */
    rowsNamed: (facts: SourceFacts) => ReadonlyArray<ReadonlySet<number>>;
    sources: readonly SourceFacts[];
    refit: Refit;
  },
): void {
  const numbers = claims.flatMap((claim, index) => (claim.kind === "number" ? [index] : []));
  if (numbers.length === 0 || numbers.some((index) => claims[index]!.status !== "unsupported")) return;
  const labels = claims.flatMap((claim, index) => (claim.kind === "date" || claim.kind === "name" ? [index] : []));
  const found: Array<{ label: number; facts: SourceFacts; table: number; row: number; fits: NonNullable<ReturnType<Refit>>[] }> = [];
  for (const facts of input.sources) {
    for (const [table, named] of input.rowsNamed(facts).entries()) {
      if (named.size === 0) continue;
      const rowLabels = facts.tables[table]!.labels;
      for (const label of labels) {
        const text = claims[label]!.text.toLowerCase().replace(/^["“‘*]+|["”’*]+$/g, "");
        const labelled = [...named].filter((row) => rowLabels[row]!.some((held) => held.includes(text)));
        if (labelled.length === 0) continue;
        for (let row = 0; row < rowLabels.length; row += 1) {
          if (named.has(row)) continue;
          const rows = new Set([...named].filter((other) => !labelled.includes(other)).concat(row));
          // Tried figure by figure, stopping at the first that does not hold there: most rows fail at once.
          const fits: NonNullable<ReturnType<Refit>>[] = [];
          for (const index of numbers) {
            const fit = input.refit(input.figures[index]!, { source: facts.id, table, rows });
            if (fit === undefined) break;
            fits.push(fit);
          }
          if (fits.length === numbers.length) found.push({ label, facts, table, row, fits });
        }
      }
    }
  }
  if (found.length !== 1) return;
  const [{ label, facts, table, row, fits }] = found as [(typeof found)[number]];
  if (numbers.length === 1 && fits[0]!.matched.length < 2) return;
  numbers.forEach((index, at) => {
    const claim = claims[index]!;
    Object.assign(claim, { status: "supported", steps: fits[at]!.steps, matched: fits[at]!.matched });
    const { derivation } = fits[at]!;
    if (derivation !== undefined) claim.derivation = derivation;
    delete claim.reason;
  });
  const holder = rowName(facts.tables[table]!.labels, row);
  Object.assign(claims[label]!, {
    status: "unsupported",
    steps: [],
    matched: [],
    reason: `${claims[label]!.text}: the sentence's figures are those of ${holder} in ${citationOf(facts.id)}, not of ${claims[label]!.text}`,
  });
}

/** A row's most telling label: one no other row of its table holds. */
function rowName(labels: readonly string[][], row: number): string {
  const own = labels[row]?.find((label) => labels.every((other, index) => index === row || !other.includes(label)));
  return own === undefined ? `row ${row}` : `the row of ${own}`;
}
