import type { Direction, Wording } from "./derive.js";
import type { Figure } from "./read-figures.js";

/** What the words of a sentence say about one of its figures: how it may follow from the values shown. */

const downWords =
  /\b(?:below|fell|fall(?:s|ing)?|dropped(?! out)|drops?(?! out)|declined?|declines|decreased?|decreases|down|lower|shrank|shrunk|shrinking|reduced|cut|lost|slipped|slid|narrowed|narrowing|contracted|eased|dipped|plunged|tumbled|slumped|worsened|trailed|trails|lagged|sank|gesunken|fiel|gefallen|rückläufig|baisse|diminué|recul|reculé|bajó|cayó|disminuyó|descendió|calo|calato|diminuito|sceso)(?![\p{L}\p{N}])/giu;
/** "Up", but not in "made up", "signed up", "up to" (a bound, read as a hedge). */
const upWords =
  /\b(?:above|rose|rises?|rising|grew|grows?|growth|increased?|increases|(?<!\b(?:made|make|makes|making|signed|sign|signs|set|sets|picked|ended|end|ends|back|backed|follow|followed|summed|sums|add|adds|added|adding|adds) )up(?! to\b)|higher|gained?|added|climbed|jumped|surged|exceeded|exceeds|outpaced|outstripped|widened|widening|expanded|improved|soared|rebounded|stieg|gestiegen|wuchs|gewachsen|hausse|augmenté|progressé|subió|aumentó|creció|crescita|cresciuto|aumentato|salito)(?![\p{L}\p{N}])/giu;
/** Words that carry a sign a figure is written without: "a loss of 1,200" is -1,200. */
const negativeWords =
  /\b(?:loss|losses|lost|deficit|negative|shortfall|outflows?|minus|debt|owed|owing|overdrawn|overdraft|in the red|expenses?|costs?|spent|spend|used|refunds?|refunded|write-?offs?|written off|paid out|burn(?:ed)?|verlust|verluste|defizit|fehlbetrag|perte|pertes|déficit|pérdida|pérdidas|perdita|perdite)\b/iu;
/** Words of loss right beside a figure ("a loss of 1,200", "a $3,400 outflow"): the figure is negative, or a field of losses. */
const lossBefore = /\b(?:loss|losses|deficit|shortfall|outflows?|negative|minus)\b(?:\s+of)?[\s\p{Sc}]*$/iu;
const lossWord = /\b(?:loss|losses|deficit|shortfall|outflows?|negative|minus)\b/i;
const lossAfter = /^\s*(?:outflows?|loss|losses|deficit|shortfall)\b/i;
/** A level after a change ("fell to", "down to", "rose to"), not the change itself. */
const levelBefore = /\b(?:to|at)\s*[\p{Sc}]?\s*$/iu;
const sumWords =
  /\b(?:total|totals|totalled|totaled|combined|together|in all|altogether|sum|plus|overall|between them|both|the (?:two|three|four|five) \p{L}+)\b/iu;
const perUnitWords = /\b(?:per|each|apiece|a head|on average|to (?:one|1)|ratio)\b|\/\s?\p{L}|\p{L}:\p{L}/iu;
const averageWords = /\b(?:average|averaged|averaging|mean)\b/i;
const differenceWords =
  /\b(?:more|fewer|less|than|vs|versus|against|compared|difference|gap|other|others|rest|remaining|excluding|besides|apart from|change|margin|short|after|minus|net of|left|did not|didn't|not yet|without|no longer)\b/i;
/** "3 more tickets", "5 fewer orders than": a difference's direction written just after it. */
const comparativeAfter =
  /^\s*(?:[\p{L}'’-]+\s+){0,2}?(more|fewer|less)\b|^\s*(under|over|below|above|short of|ahead of)\s+(?:the\s+|its\s+|our\s+)?(?:budget|target|plan|forecast|goal|quota|estimate|guidance)\b/iu;
/** "The second-highest", "3rd largest": a rank, not the extreme. */
const ranked = String.raw`(?<!\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[- ])`;
const largest = new RegExp(
  ranked +
    String.raw`\b(?:largest|biggest|highest|greatest|busiest|maximum|peak|peaked|topped out|warmest|hottest|longest|heaviest|costliest|priciest|most expensive|strongest|record(?! low)|ranked first|came first|in first place)\b|\bthe (?:most|best|top)\b|\b(?:led|topped|outsold|outperformed|beat)\s+(?:on|in|with|by|the|all|every)\b`,
  "i",
);
const smallest = new RegExp(
  ranked +
    String.raw`\b(?:smallest|lowest|fewest|quietest|minimum|bottomed out|coldest|coolest|shortest|lightest|cheapest|weakest|record low|ranked last|came last)\b|(?<!\bat )\bleast\b`,
  "i",
);

/** The sentence a figure stands in: its text without citations, lower case too, and its figures in order. */
export interface SentenceText {
  masked: string;
  folded: string;
  figures: readonly Figure[];
  /** Where the sentence first names a field (-1 if it does not): "costs exceeded revenue" runs from costs to revenue. */
  keyAt?: (key: string) => number;
}

/** Sentence-wide wording, read once per sentence. */
export interface SentenceWords {
  sums: boolean;
  averages: boolean;
  perUnit: boolean;
  /** "Of the 1,000 customers", "in all": the sentence speaks of a whole its parts add up to. */
  whole: boolean;
  /** A word of loss anywhere in the sentence: only then is it looked for beside each figure. */
  loss: boolean;
  differences: boolean;
  negative: boolean;
  /** "the largest … was", "the fewest": the figure is a column's extreme. */
  superlative: "max" | "min" | undefined;
  /** The words just after the superlative ("highest quarterly operating profit was"): the column it speaks of, if it names one. */
  superlativeOf: string;
  /** Where the superlative stands (-1 without one): it speaks of the first figure after it ("the most incidents, 12, twice Platform's 6"). */
  superlativeAt: number;
  /** Each word of change ("fell", "up") and where it stands, in order. */
  directions: Array<{ at: number; direction: "up" | "down" }>;
}

export function sentenceWords(masked: string): SentenceWords {
  return {
    sums: sumWords.test(masked),
    averages: averageWords.test(masked),
    perUnit: perUnitWords.test(masked) || averageWords.test(masked),
    loss: lossWord.test(masked),
    whole: sumWords.test(masked) || /\bof (?:(?:the |all |its |their )?\p{Sc}?\d|all\b)/iu.test(masked),
    differences: differenceWords.test(masked),
    negative: negativeWords.test(masked),
    superlative: largest.test(masked) ? "max" : smallest.test(masked) ? "min" : undefined,
    superlativeOf: wordsAfter(masked, (largest.exec(masked) ?? smallest.exec(masked))?.index),
    superlativeAt: (largest.exec(masked) ?? smallest.exec(masked))?.index ?? -1,
    directions: [
      ...[...masked.matchAll(downWords)].map((match) => ({ at: match.index, direction: "down" as const })),
      ...[...masked.matchAll(upWords)].map((match) => ({ at: match.index, direction: "up" as const })),
    ].sort((a, b) => a.at - b.at),
  };
}

/** The superlative and the four words after it, lower case ("highest quarterly operating profit was"). */
function wordsAfter(text: string, at: number | undefined): string {
  if (at === undefined) return "";
  return text.slice(at).split(/\s+/).slice(0, 5).join(" ").toLowerCase();
}

/** The wording of the figure at `place` in the sentence's figures. */
export function wordingOf(place: number, text: SentenceText, words: SentenceWords, namedKeys: ReadonlySet<string>): Wording {
  const figure = text.figures[place]!;
  // "+100", "+10%": a plus written is a rise.
  const direction = figure.text.startsWith("+") ? "up" : directionAround(place, text, words);
  const next = text.figures[place + 1];
  const after = text.masked.slice(figure.end, next === undefined ? text.masked.length : Math.max(figure.end, next.start));
  const written = comparativeAfter.exec(after);
  const comparative = (written?.[1] ?? written?.[2])?.toLowerCase();
  const wording: Wording = {
    direction,
    sums: words.sums,
    differences: words.differences,
    perUnit: words.perUnit,
    // "Fell to $1,200" is the level it fell to: the direction gives no sign to drop ("fell 1,200" is the change's).
    negative:
      (direction === "down" && !levelBefore.test(text.masked.slice(Math.max(0, figure.start - 12), figure.start))) || words.negative,
    namedKeys,
  };
  if (text.keyAt !== undefined) wording.keyAt = text.keyAt;
  if (/^\s*of\b/i.test(after)) wording.shareOf = true;
  if (comparative !== undefined) wording.comparative = /^(?:more|over|above|ahead of)$/.test(comparative) ? "up" : "down";
  // "7% under budget": a change against the plan, from it to what happened.
  if (written?.[2] !== undefined && wording.direction === undefined) wording.direction = wording.comparative;
  const than = comparative === undefined ? -1 : text.folded.indexOf(" than ", figure.end);
  if (than !== -1) wording.thanAt = than;
  if (words.loss && (lossBefore.test(text.masked.slice(Math.max(0, figure.start - 30), figure.start)) || lossAfter.test(after)))
    wording.loss = true;
  return wording;
}

/** The nearest "fell" or "rose" before the figure (since the previous one), else just after it ("2.8% below"). */
function directionAround(place: number, text: SentenceText, words: SentenceWords): Direction {
  const figure = text.figures[place]!;
  let previous = place - 1;
  while (previous >= 0 && text.figures[previous]!.end > figure.start) previous -= 1;
  let next = place + 1;
  while (next < text.figures.length && text.figures[next]!.start < figure.end) next += 1;
  const from = previous < 0 ? 0 : text.figures[previous]!.end;
  const to = text.figures[next]?.start ?? text.masked.length;
  const { directions } = words;
  const before = directions[firstAtOrAfter(directions, figure.start) - 1];
  if (before !== undefined && before.at >= from) return before.direction;
  // "Up 5.2% ($2,600)", "fell 10% (-100)": a figure in brackets right after a change restates it, in its direction.
  if (previous >= 0 && /^\s*\(\s*$/.test(text.masked.slice(from, figure.start))) return directionAround(previous, text, words);
  // After the figure only right after it ("2.8% below"): in "91%, down 3 points" the word is the next figure's.
  const after = directions[firstAtOrAfter(directions, figure.end)];
  return after !== undefined && after.at < to && text.masked.slice(figure.end, after.at).trim() === "" ? after.direction : undefined;
}

/** The first place in `words` (in order) at or after `at`: a binary search, so a long sentence stays linear. */
function firstAtOrAfter(words: ReadonlyArray<{ at: number }>, at: number): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (words[middle]!.at >= at) high = middle;
    else low = middle + 1;
  }
  return low;
}
