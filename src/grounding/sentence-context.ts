import type { Wording } from "./derive.js";
import type { EvidenceNumber, SourceFacts } from "./evidence.js";
import { periodOf, wordsOf } from "./periods.js";
import { readFigures, type Figure } from "./read-figures.js";
import { namedRows, names } from "./row-consistency.js";
import { sentenceWords, type SentenceText, type SentenceWords } from "./sentence-wording.js";
import type { Sentence } from "./split-sentences.js";

/** What one sentence's claims are checked in: its text, its figures, and what it names of each source, read once. */
export interface SentenceContext extends SentenceText {
  sentence: Sentence;
  /** The locale the answer's numbers are read in: the option, else what its unambiguous numbers say; undefined if neither. */
  locale: string | undefined;
  words: SentenceWords;
  /** The rows of a source's tables the sentence names (`namedRows`). */
  rowsNamed: (facts: SourceFacts) => ReadonlyArray<ReadonlySet<number>>;
  /** The fields of a source the sentence names by their words ("orders", "refund rate"). */
  keysNamed: (facts: SourceFacts) => ReadonlySet<string>;
  /** The objects of a source that are other entities than those the sentence names ("North's revenue": not `regions.south`). */
  othersThanNamed: (facts: SourceFacts) => ReadonlySet<string>;
  /** The steps' values the sentence's figures may rest on, by the sources asked (see `pools`): read once a sentence. */
  pools: Map<readonly SourceFacts[], Map<string, { direct: EvidenceNumber[]; operands: EvidenceNumber[] }>>;
  /** Per-sentence memos of `pools` (plain maps that go with the sentence: weak maps of many short-lived keys slow the collector). */
  memo: {
    namings: Map<string, string>;
    shown: Map<Figure, Map<object, EvidenceNumber | undefined>>;
    /** Each figure's wording by the sources it is checked in (`wordingNamed` of check-claims). */
    wordings: Map<readonly SourceFacts[], Map<number, Wording>>;
  };
  /** The fields named in any of these sources. */
  keysNamedIn: (sources: readonly SourceFacts[]) => ReadonlySet<string>;
}

export function sentenceContext(
  sentence: Sentence,
  reading: {
    /** Where the sentence's citations stand in its text (`readSentences`). */
    citationSpans: ReadonlyArray<readonly [number, number]>;
    locale: string | undefined;
  },
): SentenceContext {
  const spans = reading.citationSpans;
  let masked = sentence.text;
  for (const [start, end] of spans) masked = masked.slice(0, start) + " ".repeat(end - start) + masked.slice(end);
  const folded = masked.toLowerCase();
  const keysNamed = perSource((facts) => namedKeys(facts, folded));
  // By the sources array itself: the checker passes one array per sentence and purpose.
  const namedIn = new Map<readonly SourceFacts[], Set<string>>();
  return {
    sentence,
    locale: reading.locale,
    masked,
    folded,
    figures: readFigures(masked, { locale: reading.locale, words: true }),
    keyAt: (key) => firstMention(folded, key),
    words: sentenceWords(masked),
    rowsNamed: perSource((facts) => namedRows(facts, folded)),
    keysNamed,
    othersThanNamed: perSource((facts) => otherEntities(facts, folded)),
    pools: new Map(),
    memo: { namings: new Map(), shown: new Map(), wordings: new Map() },
    keysNamedIn: (sources) => {
      let keys = namedIn.get(sources);
      if (keys === undefined) namedIn.set(sources, (keys = new Set(sources.flatMap((facts) => [...keysNamed(facts)]))));
      return keys;
    },
  };
}

function perSource<T>(read: (facts: SourceFacts) => T): (facts: SourceFacts) => T {
  // Made when first asked for: most sentences ask for few of these, and a 1 MB answer makes 12,000 contexts.
  let known: Map<SourceFacts, T> | undefined;
  return (facts) => {
    known ??= new Map();
    if (!known.has(facts)) known.set(facts, read(facts));
    return known.get(facts)!;
  };
}

/** Where folded text first names a word of a field's name (less units), or -1. */
function firstMention(folded: string, key: string): number {
  let first = -1;
  for (const word of wordsOf(key)) {
    if (unitWords.has(word) || /^\d+$/.test(word)) continue;
    for (const form of [word, `${word}s`, word.endsWith("s") ? word.slice(0, -1) : word]) {
      const at = folded.indexOf(form);
      if (at !== -1 && (first === -1 || at < first)) first = at;
    }
  }
  return first;
}

/** Words of a field's name that say its unit, not what it counts. */
const unitWords = new Set(
  (
    "usd cny eur gbp jpy inr chf rmb amount amt num value total count n k m mn mm mio million millions bn billion billions " +
    "mrd cr crore crores lakh lakhs thousand thousands tsd 1e 3 6 7 9 " +
    // A measure before anything is taken off it: "revenue net of discounts" names `revenue_gross_usd`.
    "gross"
  ).split(" "),
);

/** Whether folded text names a word, in the singular or the plural, or a participle by its verb. */
function namesWord(folded: string, word: string): boolean {
  if (names(folded, word) || names(folded, `${word}s`) || (word.endsWith("s") && names(folded, word.slice(0, -1)))) return true;
  // `activated` is named by "activate", `churned` by "churn", `refunded` by "refunds".
  if (!word.endsWith("ed") || word.length <= 4) return false;
  const [bare, root] = [word.slice(0, -1), word.slice(0, -2)];
  return names(folded, bare) || names(folded, root) || names(folded, `${root}s`) || names(folded, `${bare}s`);
}

/** The fields of `facts` whose names' words (less units and scales) `folded` text all names. */
export function namedKeys(facts: SourceFacts, folded: string): Set<string> {
  const named = new Set<string>();
  const keyWords = keyWordsOf(facts);
  // Fields share words ("revenue" of five fields): each is looked for once.
  const seen = new Map<string, boolean>();
  const names = (word: string) => {
    let found = seen.get(word);
    if (found === undefined) seen.set(word, (found = namesWord(folded, word)));
    return found;
  };
  for (const [key, words] of keyWords) if (words.every(names)) named.add(key);
  // "Handle time across chat and email" of `chat_aht_min` and `email_aht_min`: fields that differ in one word each named.
  for (const [key, word, siblings, shared] of twinKeys(facts))
    if (!named.has(key) && names(word) && siblings.some((other) => names(other)) && shared.some(names)) named.add(key);
  // `amount` beside `amount_refunded`: a field of units alone is named with the fields it begins.
  for (const key of bareKeys(facts)) {
    const [base, currency = ""] = key.split(/(?= in [A-Z]{3}$)/);
    if ([...named].some((other) => other.startsWith(`${base}_`) && other.endsWith(currency))) named.add(key);
  }
  // "Net revenue after refunds" of `revenue_this_week` and `revenue_last_week`: a measure named without any of its periods is its latest.
  for (const { key, words, periods } of latestOfMeasures(facts))
    if (!named.has(key) && words.every(names) && !periods.some(names)) named.add(key);
  // "Net revenue after refunds": the one field that ends in a word the sentence names (`gross_revenue`) goes by it.
  for (const [key, head] of uniqueHeads(facts, keyWords))
    if (!named.has(key) && names(head) && ![...named].some((other) => headOf(keyWords, other) === head)) named.add(key);
  return named;
}

interface LatestOfMeasure {
  key: string;
  /** The measure's words (less units). */
  words: string[];
  /** The words of its fields' periods ("this", "last", "q1", "2025"): a sentence that names one names its period. */
  periods: string[];
}

const latest = new WeakMap<SourceFacts, LatestOfMeasure[]>();

/** The fields of a source that hold a measure's latest period (`revenue_this_week` of two weeks'), with the measure's words. */
function latestOfMeasures(facts: SourceFacts): LatestOfMeasure[] {
  let found = latest.get(facts);
  if (found !== undefined) return found;
  const best = new Map<string, { key: string; kind: string; rank: number; tied: boolean; periods: Set<string> }>();
  for (const number of facts.numbers) {
    const { period, stem } = number;
    if (period === undefined || stem === undefined || number.table !== undefined || number.path.endsWith(")")) continue;
    const periods = wordsOf(number.key).filter((word) => periodOf([word]) !== undefined);
    const held = best.get(stem);
    if (held === undefined)
      best.set(stem, { key: number.key, kind: period.kind, rank: period.rank, tied: false, periods: new Set(periods) });
    else {
      periods.forEach((word) => held.periods.add(word));
      if (held.key === number.key || held.kind !== period.kind) continue;
      if (period.rank > held.rank) Object.assign(held, { key: number.key, rank: period.rank, tied: false });
      else if (period.rank === held.rank) held.tied = true;
    }
  }
  found = [];
  for (const [stem, held] of best) {
    const words = wordsOf(stem).filter((word) => !unitWords.has(word) && !/^\d+$/.test(word));
    if (!held.tied && words.length > 0 && stem !== "(periods)") found.push({ key: held.key, words, periods: [...held.periods] });
  }
  latest.set(facts, found);
  return found;
}

const twins = new WeakMap<SourceFacts, Array<[string, string, string[], string[]]>>();

/**
 * Fields whose names differ in one word only (`chat_aht_min`, `email_aht_min`): each field with
 * its own word, its twins' words, and the words they share.
 */
function twinKeys(facts: SourceFacts): Array<[string, string, string[], string[]]> {
  let found = twins.get(facts);
  if (found !== undefined) return found;
  const bySignature = new Map<string, Array<{ key: string; word: string; shared: string[] }>>();
  for (const [key, words] of keyWordsOf(facts)) {
    if (words.length < 2 || key.includes(" ")) continue;
    words.forEach((word, at) => {
      const shared = words.filter((_, other) => other !== at);
      const signature = `${at}\u0000${shared.join(" ")}`;
      bySignature.set(signature, [...(bySignature.get(signature) ?? []), { key, word, shared }]);
    });
  }
  found = [];
  for (const group of bySignature.values())
    if (group.length > 1)
      for (const { key, word, shared } of group)
        found.push([key, word, group.filter((other) => other.key !== key).map((other) => other.word), shared]);
  twins.set(facts, found);
  return found;
}

const bare = new WeakMap<SourceFacts, string[]>();

/** The fields of a source whose names are units alone (`amount`, `value`, `total`). */
function bareKeys(facts: SourceFacts): string[] {
  let found = bare.get(facts);
  if (found === undefined) {
    const keys = new Set(facts.numbers.map((number) => number.key));
    found = [...keys].filter(
      (key) => /^[a-z]+(?: in [A-Z]{3})?$/i.test(key) && unitWords.has(key.replace(/ in [A-Z]{3}$/, "").toLowerCase()),
    );
    bare.set(facts, found);
  }
  return found;
}

const heads = new WeakMap<SourceFacts, Array<[string, string]>>();

/** The fields of a source whose last word no other field ends in, with that word (fields with a period left out). */
function uniqueHeads(facts: SourceFacts, keyWords: ReadonlyArray<[string, string[]]>): Array<[string, string]> {
  let found = heads.get(facts);
  if (found !== undefined) return found;
  const periodic = new Set(facts.numbers.filter((number) => number.period !== undefined).map((number) => number.key));
  const byHead = new Map<string, string[]>();
  for (const [key, words] of keyWords) {
    if (words.length < 2 || key.includes(" ")) continue;
    const head = words.at(-1)!;
    byHead.set(head, [...(byHead.get(head) ?? []), key]);
  }
  found = [...byHead].filter(([, keys]) => keys.length === 1 && !periodic.has(keys[0]!)).map(([head, keys]) => [keys[0]!, head]);
  heads.set(facts, found);
  return found;
}

function headOf(keyWords: ReadonlyArray<[string, string[]]>, key: string): string | undefined {
  return keyWords.find(([other]) => other === key)?.[1].at(-1);
}

const headTotals = new WeakMap<SourceFacts, Array<{ head: string; keys: string[]; sum: number }>>();

/**
 * The totals of a source's scalar fields that end or begin with one noun (`new_customers` and
 * `returning_customers`: customers; `tickets_resolved`, `tickets_escalated`) whose noun the
 * sentence names: "62% of the 1,000 customers".
 */
export function headTotalsNamed(facts: SourceFacts, folded: string): Array<{ head: string; keys: string[]; sum: number }> {
  let totals = headTotals.get(facts);
  if (totals === undefined) {
    const byHead = new Map<string, { keys: string[]; sum: number }>();
    const words = new Map(keyWordsOf(facts));
    for (const number of facts.numbers) {
      if (number.table !== undefined || number.identifier || number.path.endsWith(")") || number.key.includes(" ×")) continue;
      const named = words.get(number.key);
      if (named === undefined || named.length < 2) continue;
      // The noun may end the name (`new_customers`) or begin it (`tickets_resolved`).
      for (const head of new Set([named.at(-1)!, named[0]!])) {
        const total = byHead.get(head) ?? { keys: [], sum: 0 };
        if (total.keys.includes(number.key)) continue;
        total.keys.push(number.key);
        total.sum += number.value;
        byHead.set(head, total);
      }
    }
    totals = [...byHead].filter(([, total]) => total.keys.length > 1).map(([head, total]) => ({ head, ...total }));
    headTotals.set(facts, totals);
  }
  return totals.filter((total) => namesWord(folded, total.head));
}

const keyWords = new WeakMap<SourceFacts, Array<[string, string[]]>>();

/** Each field of a source with the words that name it (less units and scales), read once per source. */
function keyWordsOf(facts: SourceFacts): Array<[string, string[]]> {
  let found = keyWords.get(facts);
  if (found !== undefined) return found;
  const words = new Map<string, string[]>();
  for (const { key } of facts.numbers)
    if (!words.has(key))
      words.set(
        key,
        // `amount_refunded in USD` (Stripe's cents in dollars) is named as `amount_refunded` is.
        wordsOf(key.replace(/ in [A-Z]{3}$/, "")).filter((word) => !unitWords.has(word) && !/^\d+$/.test(word)),
      );
  found = [...words].filter(([, named]) => named.length > 0);
  keyWords.set(facts, found);
  return found;
}

/** The paths of entity objects whose siblings the sentence names while not naming them. */
function otherEntities(facts: SourceFacts, folded: string): Set<string> {
  const byParent = new Map<string, Array<{ path: string; named: boolean }>>();
  for (const entity of facts.entities) {
    const siblings = byParent.get(entity.parent) ?? [];
    siblings.push({
      path: entity.path,
      named: namesWord(folded, entity.name) || (entity.alias !== undefined && names(folded, entity.alias)),
    });
    byParent.set(entity.parent, siblings);
  }
  const others = new Set<string>();
  for (const siblings of byParent.values())
    if (siblings.some((sibling) => sibling.named)) for (const sibling of siblings) if (!sibling.named) others.add(sibling.path);
  return others;
}
