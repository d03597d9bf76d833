import { atOnce, type Stepwise } from "../core/turns.js";
import { attachedRow, entityParent, whereNamed } from "./entity-order.js";
import { countClaims, type CheckedClaim, type ClaimReport, type MatchedValue } from "./claim-report.js";
import { sourceFacts, type EvidenceNumber, type SourceFacts } from "./evidence.js";
import { InvalidOptionsError } from "../core/errors.js";
import { periodsBefore, pools } from "./claim-pools.js";
import { localeMarks } from "./locale-marks.js";
import { matchNumber, shownIn, type Derivation, type Wording } from "./match-number.js";
import type { Figure } from "./read-figures.js";
import { otherReading } from "./other-reading.js";
import { inferLocale } from "./read-numbers.js";
import { blameLabels, names, type RowOverride } from "./row-consistency.js";
import { sentenceContext, type SentenceContext } from "./sentence-context.js";
import { rangeOverColumn, spreadWords, withinRange } from "./ranges.js";
import { periodNumber, wordingOf } from "./sentence-wording.js";
import { citationOf, readSentences } from "./split-sentences.js";

/** The outputs claims may rest on: a run's step records (only succeeded steps count), or a list. */
export type ClaimEvidence = Record<string, { status?: string; output?: unknown }> | ReadonlyArray<{ id: string | number; output: unknown }>;

export interface CheckClaimsOptions {
  /** The task's text: what it states (the week, a name) is given, not claimed (source "task"). */
  task?: string | undefined;
  /**
   * The locale the answer writes its numbers in ("de": `1.234,50`; "fr": `1 234,50`; "en-IN":
   * `12,34,567`). Without it, the answer's unambiguous numbers decide ("98.765,40" is German
   * style), else English.
   */
  locale?: string | undefined;
}

interface Found {
  steps: string[];
  matched: MatchedValue[];
  derivation?: Derivation;
}

/** The steps' facts by id, read once (`readEvidence`) for any number of answers. */
export type Evidence = ReadonlyMap<string, SourceFacts>;

/** The facts of the outputs claims may rest on, a step at a time (run it with `atOnce` or `inTurns`). */
export function* readEvidence(steps: ClaimEvidence): Stepwise<Evidence> {
  const outputs: Array<[string, unknown]> = Array.isArray(steps)
    ? steps.map((step) => [String(step.id), step.output])
    : Object.entries(steps as Record<string, { status?: string; output?: unknown }>)
        .filter(([, record]) => record.output !== undefined && (record.status === undefined || record.status === "succeeded"))
        .map(([id, record]) => [id, record.output]);
  const evidence = new Map<string, SourceFacts>();
  for (const [id, output] of outputs) {
    const facts = sourceFacts(id, output);
    evidence.set(facts.id, facts);
    yield;
  }
  return evidence;
}

/**
 * Checks every figure, date, identifier and quoted or bold name of `answer` against the
 * step outputs, with no model: each is `supported` by the steps its sentence cites, `uncited`
 * (no citation, but some step shows it), or `unsupported`. Numbers match when a step shows
 * them at the precision written (rounding and cutting off allowed, "about" widens it to the
 * last non-zero digit), or follow from two shown values by a sum, difference, ratio, share,
 * percentage change or percentage points; tables add each column's sum, mean, min, max and
 * row count, and per label its rows' count and sums. A sentence that names a table's rows
 * ("on 2026-11-18", "in USD") is checked against those rows only.
 *
 * @example
 * const report = checkClaims("Refunds were ¥1,204.50 [s4].", { "4": { status: "succeeded", output: { refund_total_cny: 1204.5 } } });
 * report.claims[0]!.status; // "supported"
 */
export function checkClaims(answer: string, steps: ClaimEvidence, options: CheckClaimsOptions = {}): ClaimReport {
  return atOnce(checkClaimsStepwise(answer, atOnce(readEvidence(steps)), options));
}

/**
 * `checkClaims` against evidence read once, a sentence at a time: what the owner of a run
 * runs in turns (`inTurns`), so that a long answer over a large run does not hold its event loop.
 */
export function* checkClaimsStepwise(answer: string, sources: Evidence, options: CheckClaimsOptions = {}): Stepwise<ClaimReport> {
  const task = options.task === undefined ? undefined : sourceFacts("task", options.task);
  const ids = new Set(sources.keys());
  const evidence = { sources, everyStep: [...sources.values()], task };
  const { sentences, citationSpans } = readSentences(answer, ids);
  const locale = readLocale(options.locale) ?? inferLocale(answer);
  const claims: CheckedClaim[] = [];
  const yearsShown = once(() =>
    [...evidence.everyStep, ...(task ? [task] : [])].some((facts) => [...facts.dates].some((date) => /^\d{4}$/.test(date))),
  );
  for (const sentence of sentences) {
    const context = sentenceContext(sentence, { citationSpans: citationSpans[sentence.index]!, locale });
    // The steps the sentence cites, one array for all its figures (what they are checked in is read once, by it).
    const cited = sentence.cites.flatMap((id) => sources.get(id) ?? []);
    const sentenceSources = {
      given: task === undefined ? [] : [task],
      cited,
      // Read only for a sentence that cites nothing: it asks every step which rows the sentence names.
      implicit: once(() => implicitSources(context, evidence.everyStep)),
      others: once(() => evidence.everyStep.filter((facts) => !cited.includes(facts))),
    };
    const checked = context.figures.map((_, place) => checkFigure(place, context, sentenceSources));
    const candidates = cited.length > 0 ? cited : evidence.everyStep;
    const places = new Map(context.figures.map((figure, place) => [figure, place]));
    const refit = (figure: Figure, override: RowOverride) => find(places.get(figure)!, context, candidates, override);
    blameLabels(checked, { figures: context.figures, rowsNamed: context.rowsNamed, sources: candidates, refit });
    restOnUnsupported(checked);
    // "Since 2019", "in 2026": where no step (nor the task) speaks of any year, a year is the report's setting, not a claim.
    claims.push(...checked.filter((_, place) => !asSetting(context, place) || yearsShown()));
    yield;
  }
  return { sentences, claims, counts: countClaims(claims) };
}

/**
 * A figure derived from another figure of its sentence holds only if that one does: in "from 40
 * to 55, up 37.5%", 37.5% follows from 55, which no step shows.
 */
function restOnUnsupported(claims: CheckedClaim[]): void {
  const unsupported = new Set(
    claims.filter((claim) => claim.status === "unsupported" && claim.kind === "number").map((claim) => claim.text),
  );
  if (unsupported.size === 0) return;
  for (const claim of claims) {
    const leaning = claim.matched.find((value) => value.step === "sentence" && unsupported.has(value.path));
    if (claim.status === "unsupported" || leaning === undefined) continue;
    Object.assign(claim, {
      status: "unsupported",
      steps: [],
      matched: [],
      reason: `${claim.text}: follows from ${leaning.path}, which no step shows`,
    });
    delete claim.derivation;
  }
}

/** A year written as a time ("in 2026", "since 2019", "Q3 2025"), not as a count ("2000 parcels"). */
const yearWords =
  /\b(?:in|since|of|for|by|from|until|till|to|through|during|before|after|year|fy|q[1-4]|h[12]|early|late|mid|end|start)\s+$/i;

function asSetting(context: SentenceContext, place: number): boolean {
  const figure = context.figures[place]!;
  return figure.year === true && yearWords.test(context.masked.slice(Math.max(0, figure.start - 16), figure.start));
}

function readLocale(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  try {
    return localeMarks(locale).locale;
  } catch {
    throw new InvalidOptionsError(`locale must be a locale Intl knows ("de", "fr-CH", "en-IN"), not ${JSON.stringify(locale)}`);
  }
}

/** The steps a sentence's figures are checked in, one array each for all its figures. */
interface SentenceSources {
  /** The task's own text, when given. */
  given: SourceFacts[];
  cited: SourceFacts[];
  /** For a sentence that cites nothing (`implicitSources`). */
  implicit: () => SourceFacts[];
  /** The steps it does not cite: to say where else a figure is (read when a figure is unsupported). */
  others: () => SourceFacts[];
}

function once<T>(read: () => T): () => T {
  let value: { read: T } | undefined;
  return () => (value ??= { read: read() }).read;
}

function checkFigure(place: number, context: SentenceContext, sources: SentenceSources): CheckedClaim {
  const given = find(place, context, sources.given) ?? countOfCited(place, context);
  if (given) return claimOf({ place, context, status: "supported", found: given });
  const { sentence } = context;
  const citesSomething = sentence.cites.length > 0 || sentence.unknownCites.length > 0;
  const found = find(place, context, citesSomething ? sources.cited : sources.implicit());
  if (found) return claimOf({ place, context, status: citesSomething ? "supported" : "uncited", found });
  const reason = whyUnsupported(place, context, sources.others);
  return claimOf({ place, context, status: "unsupported", found: { steps: [], matched: [] }, reason });
}

/**
 * The claim of the figure at `place`, written out field by field: an object spread followed by
 * more fields cost some 8 µs each on Node 20, a tenth of a 1 MB answer's time (bench:grounding-time).
 */
function claimOf(outcome: {
  place: number;
  context: SentenceContext;
  status: CheckedClaim["status"];
  found: Found;
  reason?: string;
}): CheckedClaim {
  const { place, context, found } = outcome;
  const { sentence } = context;
  const figure = context.figures[place]!;
  const claim: CheckedClaim = {
    kind: figure.kind,
    text: figure.text,
    start: sentence.start + figure.start,
    end: sentence.start + figure.end,
    sentence: sentence.index,
    status: outcome.status,
    steps: found.steps,
    matched: found.matched,
  };
  if ("derivation" in found) claim.derivation = found.derivation;
  if (outcome.reason !== undefined) claim.reason = outcome.reason;
  return claim;
}

/**
 * "Over the two weeks [s1, s2]", "the three shops [s1, s2, s3]": a count of the things the
 * sentence cites a step for each of is given by its citations.
 */
function countOfCited(place: number, context: SentenceContext): Found | undefined {
  const figure = context.figures[place]!;
  const cited = context.sentence.cites.length;
  if (figure.kind !== "number" || figure.unit !== undefined || figure.value !== cited || cited < 2) return undefined;
  if (!/^\s+(?:[\p{L}-]+\s+)?[\p{L}]+s\b/u.test(context.masked.slice(figure.end))) return undefined;
  return { steps: [...context.sentence.cites], matched: [{ step: "citations", path: "(steps cited)", value: cited }] };
}

/**
 * What an uncited sentence is checked against: the steps whose rows or groups it names
 * ("Zhou Tao placed the most orders" speaks of the orders' rows), else every step.
 */
function implicitSources(context: SentenceContext, everyStep: SourceFacts[]): SourceFacts[] {
  const named = everyStep.filter((facts) => context.rowsNamed(facts).some((rows) => rows.size > 0));
  return named.length > 0 ? named : everyStep;
}

function whyUnsupported(place: number, context: SentenceContext, others: () => SourceFacts[]): string {
  const { sentence } = context;
  const figure = context.figures[place]!;
  const what = `${figure.text}`;
  if (sentence.cites.length === 0 && sentence.unknownCites.length === 0)
    return `${what}: no step's output shows it or a value it follows from`;
  const unknown = sentence.unknownCites.length > 0 ? ` (${sentence.unknownCites.join(", ")} is not a step of this run)` : "";
  const elsewhere = shownElsewhere(place, context, others());
  const cites = sentence.cites.map(citationOf).join(", ") || "no step";
  if (elsewhere) return `${what}: not in ${cites}${unknown}; ${elsewhere.steps.map(citationOf).join(", ")} shows it`;
  return `${what}: not in ${cites}${unknown}, nor in any other step`;
}

/**
 * The steps of `sources` that show a figure: as find does for dates, names and identifiers; a
 * number as a value shown (not derived: a figure no cited step supports is searched in the rest
 * only to say where it is, and a derivation from uncited steps would cost a search for a reason).
 */
function shownElsewhere(place: number, context: SentenceContext, sources: readonly SourceFacts[]): Found | undefined {
  const figure = context.figures[place]!;
  if (figure.kind !== "number" || sources.length === 0) return find(place, context, sources);
  const number = shownIn(figure, pools(place, { context, sources }).direct);
  return number === undefined
    ? undefined
    : { steps: [number.source], matched: [{ step: number.source, path: number.path, value: number.value }] };
}

function find(place: number, context: SentenceContext, sources: readonly SourceFacts[], override?: RowOverride): Found | undefined {
  if (sources.length === 0) return undefined;
  const figure = context.figures[place]!;
  if (figure.kind === "date") return findDate(figure.dates!, sources);
  if (figure.kind === "name") {
    const name = figure
      .name!.toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/[.,;:!?]+$/, "");
    // A name whose parts are kept apart ("first_name", "last_name") is found by its words.
    const words = name.split(" ");
    const holder = sources.find(
      (facts) => facts.text.includes(name) || (words.length > 1 && words.every((word) => names(facts.text, word))),
    );
    return holder ? { steps: [holder.id], matched: [{ step: holder.id, path: "(text)", value: figure.name! }] } : undefined;
  }
  if (figure.kind === "id") {
    const bare = figure.name!.replace(/^#/, "");
    const holder = sources.find((facts) => facts.raw.includes(bare) || (!/\p{L}/u.test(bare) && showsDigits(facts.raw, bare)));
    return holder ? { steps: [holder.id], matched: [{ step: holder.id, path: "(text)", value: figure.name! }] } : undefined;
  }
  if (figure.year) {
    const year = findDate([String(figure.value)], sources);
    if (year) return year;
  }
  // "Week 45", "sprint 12": a period's number, found in a label that writes it ("2026-W45").
  if (periodNumber(context.masked, figure) && Number.isInteger(figure.value)) {
    const written = new RegExp(`(?<!\\d)0*${figure.value}(?!\\d)`);
    // In a value ("2026-W45") or a field's name (`revenue_w45`).
    const holder = sources.find((facts) => written.test(facts.raw) || written.test(facts.text));
    if (holder) return { steps: [holder.id], matched: [{ step: holder.id, path: "(text)", value: figure.text }] };
  }
  const pool = pools(place, { context, sources, override });
  const overColumn =
    figure.range === undefined
      ? undefined
      : rangeOverColumn(figure, pool.direct, {
          spread: spreadWords.test(context.masked),
          named: context.keysNamedIn(sources),
          siblingsOf: (number) =>
            entityParent(
              sources.find((facts) => facts.id === number.source),
              number.path,
            ),
        });
  const match =
    overColumn !== undefined
      ? (overColumn ?? undefined)
      : (matchNumber(figure, pool, wordingNamed(place, context, sources)) ??
        withinRange(figure, pool.direct, context.keysNamedIn(sources)) ??
        otherReading(figure, context, (other) => matchNumber(other, pool, wordingNamed(place, context, sources))));
  if (!match) return override === undefined ? fromPeriodBefore(place, context, sources) : undefined;
  // "North brought in $98,000 and South $124,500": a value shown is of the row the words just before it name.
  const own = override === undefined && match.derivation === "value" ? ownRow(place, context, sources, match.operands[0]!) : undefined;
  if (own !== undefined) return find(place, context, sources, own);
  const matched = match.operands.map((number) => ({ step: number.source, path: number.path, value: number.value }));
  const steps = [
    ...new Set(match.operands.filter((number) => number.source !== "sentence").flatMap((number) => number.sources ?? [number.source])),
  ];
  return { steps, matched, derivation: match.derivation };
}

/** "From 1,198", "up from", "against", "compared with": where a change's start stands. */
const changeStart = /\b(?:from|against|versus|vs\.?|compared (?:with|to))\s*\p{Sc}?\s*$/iu;

/**
 * "Orders rose from 1,198 to 1,305 in week 47": the start of a change of the one period a
 * sentence names is the period before's value, shown as it stands.
 */
function fromPeriodBefore(place: number, context: SentenceContext, sources: readonly SourceFacts[]): Found | undefined {
  const figure = context.figures[place]!;
  if (figure.kind !== "number" || !changeStart.test(context.masked.slice(Math.max(0, figure.start - 20), figure.start))) return undefined;
  for (const facts of sources) {
    const named = context.rowsNamed(facts);
    for (const key of periodsBefore(facts, named, context.folded)) {
      const [table, row] = key.split(":").map(Number) as [number, number];
      const found = find(place, context, sources, { source: facts.id, table, rows: new Set([...named[table]!, row]) });
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The row the figure at `place` is said of, when it is not the row of the value it matched (`attachedRow`), as rows to use instead. */
function ownRow(place: number, context: SentenceContext, sources: readonly SourceFacts[], value: EvidenceNumber): RowOverride | undefined {
  if (value.row === undefined || value.table === undefined) return undefined;
  const facts = sources.find((source) => source.id === value.source);
  const named = facts === undefined ? undefined : context.rowsNamed(facts)[value.table];
  if (facts === undefined || named === undefined || named.size < 2) return undefined;
  const from = place === 0 ? 0 : context.figures[place - 1]!.end;
  const row = attachedRow(facts, { table: value.table, rows: named }, context.folded.slice(from, context.figures[place]!.start));
  return row === undefined || row === value.row ? undefined : { source: facts.id, table: value.table, rows: new Set([row]) };
}

/**
 * The figure's wording, with where the sentence names a value's row: `wordingOf` makes a fresh object, added to (not
 * spread). Read once a sentence per figure and sources (nothing changes it after): `blameLabels` tries a figure again
 * on each other row of a table with the same sources.
 */
function wordingNamed(place: number, context: SentenceContext, sources: readonly SourceFacts[]): Wording {
  let byPlace = context.memo.wordings.get(sources);
  if (byPlace === undefined) context.memo.wordings.set(sources, (byPlace = new Map()));
  let wording = byPlace.get(place);
  if (wording !== undefined) return wording;
  wording = wordingOf(place, context, context.words, context.keysNamedIn(sources));
  // The closure holds the sentence's text, not its context: wordings stay reachable a while after their sentence, and
  // each kept its context's maps with it, which the collector then promoted: 56 MB of a 1 MB answer, 8 MB without.
  const { folded } = context;
  wording.namedAt = (number) => namedIn(sources, number, folded);
  byPlace.set(place, wording);
  return wording;
}

function namedIn(sources: readonly SourceFacts[], number: EvidenceNumber, folded: string): number {
  const facts = sources.find((source) => source.id === number.source);
  return facts === undefined ? -1 : whereNamed(facts, number, folded);
}

/** A phone number written another way ("(415) 555-0132" of "+1 415-555-0132"): a line of the output with its digits. */
function showsDigits(raw: string, written: string): boolean {
  const digits = written.replace(/\D/g, "");
  return raw.split("\n").some((line) => {
    const shown = line.replace(/\D/g, "");
    return shown.length >= 7 && (shown.endsWith(digits) || digits.endsWith(shown));
  });
}

function findDate(dates: readonly string[], sources: readonly SourceFacts[]): Found | undefined {
  for (const facts of sources) {
    const date = dates.find((reading) => facts.dates.has(reading));
    if (date !== undefined) return { steps: [facts.id], matched: [{ step: facts.id, path: "(dates)", value: date }] };
  }
  return undefined;
}
