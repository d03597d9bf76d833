import type { Direction, Wording } from "./derive.js";
import type { Figure } from "./read-figures.js";

/** What the words of a sentence say about one of its figures: how it may follow from the values shown. */

const downWords =
  /\b(?:below|fell|fall(?:s|ing)?|dropped|drops?|declined?|declines|decreased?|decreases|down|lower|shrank|shrunk|reduced|cut|lost|slipped|slid)\b/gi;
const upWords = /\b(?:above|rose|rises?|rising|grew|grows?|growth|increased?|increases|up|higher|gained?|climbed|jumped|surged)\b/gi;
/** Words that carry a sign a figure is written without: "a loss of 1,200" is -1,200. */
const negativeWords =
  /\b(?:loss|losses|lost|deficit|negative|shortfall|outflows?|minus|debt|owed|owing|expenses?|costs?|spent|spend|refunds?|refunded|write-?offs?|written off|paid out|burn(?:ed)?)\b/i;
const sumWords = /\b(?:total|totals|totalled|totaled|combined|together|in all|altogether|sum|plus|overall|between them)\b/i;
const averageWords = /\b(?:average|averaged|averaging|mean)\b/i;
const differenceWords =
  /\b(?:more|fewer|less|than|difference|gap|other|others|rest|remaining|excluding|besides|apart from|net|change|margin|short)\b/i;
/** "3 more tickets", "5 fewer orders than": a difference's direction written just after it. */
const comparativeAfter = /^\s*(?:[\p{L}'’-]+\s+){0,2}?(more|fewer|less)\b/iu;
const largest = /\b(?:largest|biggest|highest|greatest|busiest|maximum|peak)\b|\bthe (?:most|best|top)\b/i;
const smallest = /\b(?:smallest|lowest|fewest|quietest|minimum)\b|(?<!\bat )\bleast\b/i;

/** The sentence a figure stands in: its text without citations, lower case too, and its figures in order. */
export interface SentenceText {
  masked: string;
  folded: string;
  figures: readonly Figure[];
}

/** Sentence-wide wording, read once per sentence. */
export interface SentenceWords {
  sums: boolean;
  averages: boolean;
  differences: boolean;
  negative: boolean;
  /** "the largest … was", "the fewest": the figure is a column's extreme. */
  superlative: "max" | "min" | undefined;
}

export function sentenceWords(masked: string): SentenceWords {
  return {
    sums: sumWords.test(masked),
    averages: averageWords.test(masked),
    differences: differenceWords.test(masked),
    negative: negativeWords.test(masked),
    superlative: largest.test(masked) ? "max" : smallest.test(masked) ? "min" : undefined,
  };
}

/** The wording of the figure at `place` in the sentence's figures. */
export function wordingOf(place: number, text: SentenceText, words: SentenceWords, namedKeys: ReadonlySet<string>): Wording {
  const figure = text.figures[place]!;
  const direction = directionAround(place, text);
  const next = text.figures[place + 1];
  const after = text.masked.slice(figure.end, next === undefined ? text.masked.length : Math.max(figure.end, next.start));
  const comparative = comparativeAfter.exec(after)?.[1]?.toLowerCase();
  const wording: Wording = {
    direction,
    sums: words.sums,
    differences: words.differences,
    negative: direction === "down" || words.negative,
    namedKeys,
  };
  if (comparative !== undefined) wording.comparative = comparative === "more" ? "up" : "down";
  return wording;
}

/** The nearest "fell" or "rose" before the figure (since the previous one), else just after it ("2.8% below"). */
function directionAround(place: number, text: SentenceText): Direction {
  const figure = text.figures[place]!;
  let previous = place - 1;
  while (previous >= 0 && text.figures[previous]!.end > figure.start) previous -= 1;
  let next = place + 1;
  while (next < text.figures.length && text.figures[next]!.start < figure.end) next += 1;
  const before = directionIn(text.masked.slice(previous < 0 ? 0 : text.figures[previous]!.end, figure.start), "last");
  const following = text.figures[next];
  return before ?? directionIn(text.masked.slice(figure.end, following?.start ?? text.masked.length), "first");
}

function directionIn(text: string, which: "first" | "last"): Direction {
  const at = (pattern: RegExp) => {
    const found = [...text.matchAll(pattern)].map((match) => match.index);
    return which === "last" ? (found.at(-1) ?? -1) : (found[0] ?? Infinity);
  };
  const down = at(downWords);
  const up = at(upWords);
  if (which === "last") return down === -1 && up === -1 ? undefined : down > up ? "down" : "up";
  return down === Infinity && up === Infinity ? undefined : down < up ? "down" : "up";
}
