import type { Direction, Wording } from "./derive.js";
import type { Figure } from "./read-figures.js";

/** What the words of a sentence say about one of its figures: how it may follow from the values shown. */

const downWords =
  /\b(?:below|fell|fall(?:s|ing)?|dropped(?! out)|drops?(?! out)|declined?|declines|decreased?|decreases|down|lower|shrank|shrunk|shrinking|reduced|cut|lost|slipped|slid|narrowed|narrowing|contracted|eased|dipped|plunged|tumbled|slumped|trailed|trails|lagged|missed|sank|gesunken|fiel|gefallen|rückläufig|baisse|diminué|recul|reculé|bajó|cayó|disminuyó|descendió|calo|calato|diminuito|sceso)(?![\p{L}\p{N}])/giu;
/** "Up", but not in "made up", "signed up", "up to" (a bound, read as a hedge). */
const upWords =
  /\b(?:above|rose|rises?|rising|grew|grows?|growth|increased?|increases|(?<!\b(?:made|make|makes|making|signed|sign|signs|set|sets|picked|ended|end|ends|back|backed|follow|followed|summed|sums|add|adds|added|adding|adds) )up(?! to\b)|higher|gain(?:s|ed)?|added|outnumber(?:ed|s)?|outsold|beat|beats|climbed|jumped|surged|exceeded|exceeds|outpaced|outstripped|widened|widening|expanded|soared|rebounded|stieg|gestiegen|wuchs|gewachsen|hausse|augmenté|progressé|subió|aumentó|creció|crescita|cresciuto|aumentato|salito)(?![\p{L}\p{N}])/giu;
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
const cameTo = /\band\b.*\b(?:came|come|comes|coming|add(?:ed|s)? up|amount(?:ed|s)?)\s+to\b/iu;
const perUnitWords = /\b(?:per|each|apiece|a head|on average|to (?:one|1)|ratio)\b|\/\s?\p{L}|\p{L}:\p{L}/iu;
const averageWords = /\b(?:average|averaged|averaging|mean)\b/i;
const differenceWords =
  /\b(?:more|fewer|less|than|vs|versus|against|compared|difference|gap|other|others|rest|remaining|excluding|besides|apart from|change|margin|short|after|minus|net of|left|leaving|leaves|improved|improvement|worsened|deteriorated|swing|spread|profit|did not|didn't|not yet|without|no longer)\b/i;
/** "3 more tickets", "5 fewer orders than": a difference's direction written just after it. */
const comparativeAfter =
  /^\s*(?:[\p{L}'’-]+\s+){0,2}?(more|fewer|less)\b|^\s*(under|over|below|above|short of|ahead of)\s+(?:the\s+|its\s+|our\s+)?(?:budget|target|plan|forecast|goal|quota|estimate|guidance)\b/iu;
/** "The second-highest", "3rd largest": a rank, not the extreme. */
const ranked = String.raw`(?<!\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[- ])`;
const largest = new RegExp(
  ranked +
    String.raw`\b(?:largest|biggest|highest|greatest|busiest|maximum|peak|peaked|topped out|warmest|hottest|longest|heaviest|costliest|priciest|most expensive|strongest|record(?! low)|ranked first|came first|in first place)\b|\bthe (?:most|best|top)\b|\b(?:best|top)[- ](?:selling|seller|sellers|performing|performer|grossing)\b|\bbestsell(?:er|ing)\b|\b(?:our|its|their|his|her) top\b|\bfastest[- ]grow(?:ing|th)\b|\b(?:had|has|have|logged|saw|sees|made|sold|won|took|handled|closed|got|received|recorded)\s+most\b|\bmost\s+\p{L}+\s+(?:came|come|were|was|went)\s+(?:from|to|in)\b|\b(?:led|topped|outsold|outperformed|beat)\s+(?:on|in|with|by|the|all|every)\b`,
  "iu",
);
const smallest = new RegExp(
  ranked +
    String.raw`\b(?:smallest|lowest|fewest|quietest|minimum|bottomed out|coldest|coolest|shortest|lightest|cheapest|weakest|record low|ranked last|came last|(?:worst|slowest)[- ](?:selling|seller|performing|performer|growing|growth))\b|(?<!\bat )\bleast\b`,
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
  /** "Under budget", "beat quota", "over target": the sentence speaks of a plan. */
  plan: boolean;
  /** "the largest … was", "the fewest": the figure is a column's extreme. */
  superlative: "max" | "min" | undefined;
  /** "The gap between the highest and the lowest revenue": a column's largest less its smallest. */
  extremesApart: boolean;
  /** 1 for the extreme; 2 for "the second-highest", 3 for "the third-largest". */
  superlativeRank: number;
  /** The words just after the superlative ("highest quarterly operating profit was"): the column it speaks of, if it names one. */
  superlativeOf: string;
  /** Where the superlative stands (-1 without one): it speaks of the first figure after it ("the most incidents, 12, twice Platform's 6"). */
  superlativeAt: number;
  /** Each word of change ("fell", "up") and where it stands, in order. */
  directions: Array<{ at: number; direction: "up" | "down" }>;
}

/** "The second-highest revenue", "the 3rd largest": a rank, checked against the column's values in order. */
const rankedSuperlative =
  /\b(second|third|fourth|fifth|2nd|3rd|4th|5th)[- ](?:(?:most|least)\s+)?(?:(highest|largest|biggest|greatest|busiest|best|top|most)|(lowest|smallest|fewest|least|weakest|worst|quietest))\b/i;
const rankOf: Record<string, number> = { second: 2, third: 3, fourth: 4, fifth: 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5 };

/** A word any superlative or rank holds: where none stands (most sentences), its patterns are not run. */
const superlativeHint =
  /larg|bigg|high|great|busi|maxim|peak|topp|warm|hott|long|heav|cost|pric|expens|strong|record|first|most|best|top|sell|fast|led|outs|outp|beat|small|low|few|quiet|minim|bottom|cold|cool|short|light|cheap|weak|last|least|worst|slow/i;

export function sentenceWords(masked: string): SentenceWords {
  const hinted = superlativeHint.test(masked);
  const most = hinted ? largest.exec(masked) : null;
  const least = hinted && most === null ? smallest.exec(masked) : null;
  const extreme = most ?? least;
  const rank = hinted && extreme === null ? rankedSuperlative.exec(masked) : null;
  return {
    // "New and reopened tickets came to 138": what two named things come to is their sum.
    sums: sumWords.test(masked) || cameTo.test(masked),
    averages: averageWords.test(masked),
    perUnit: perUnitWords.test(masked) || averageWords.test(masked),
    loss: lossWord.test(masked),
    // "Of the 1,000 customers", "in all", "made up 58.7% of sessions": a share of a whole the sentence names.
    whole:
      sumWords.test(masked) ||
      /\bof (?:(?:the |all |its |their )?\p{Sc}?\d|all\b)/iu.test(masked) ||
      /\d\s?%\s+of\s+(?:the\s+|all\s+)?\p{L}/iu.test(masked),
    differences: differenceWords.test(masked),
    negative: negativeWords.test(masked),
    plan: /\b(?:budget|budgeted|target|plan|planned|forecast|goal|quota|guidance)\b/i.test(masked),
    superlative: most !== null ? "max" : least !== null ? "min" : rank === null ? undefined : rank[2] ? "max" : "min",
    extremesApart: most !== null && smallest.test(masked) && /\b(?:gap|spread|difference|apart|separated)\b/i.test(masked),
    superlativeRank: rank === null ? 1 : rankOf[rank[1]!.toLowerCase()]!,
    superlativeOf: wordsAfter(masked, (extreme ?? rank)?.index),
    superlativeAt: (extreme ?? rank)?.index ?? -1,
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
  const lossWords = words.negative && inClause(negativeWords, text.masked, figure, after);
  const wording: Wording = {
    direction,
    sums: words.sums,
    differences: words.differences,
    perUnit: words.perUnit,
    // "Fell to $1,200" is the level it fell to: the direction gives no sign to drop ("fell 1,200" is the change's).
    negative:
      (direction === "down" &&
        !levelBefore.test(text.masked.slice(Math.max(0, figure.start - 12), figure.start)) &&
        inClause(downWord, text.masked, figure, after)) ||
      lossWords,
    namedKeys,
  };
  if (lossWords) wording.magnitudes = true;
  if (words.averages) wording.averages = true;
  if (words.plan) wording.againstPlan = true;
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

/** Where a clause begins: "…, net income was", "… and net income": a word of loss before it is another figure's. */
const clauseStart = /[,;]|\b(?:and|but|while|whereas|despite|though|although)\b/gi;
/** Where the words after a figure stop being its own: "$312,500 on operating expenses of $2.71m". */
const clauseEnd = /[,;(]|\b(?:and|but|while|whereas|on|against|versus|vs|with|from|after|before|despite|compared|than)\b/i;

/** A word of fall, one at a time (`downWords` is global, for reading them all). */
const downWord = new RegExp(downWords.source, "iu");

/**
 * "Net income was $1,200" is not -1,200 because the sentence goes on to "operating expenses of
 * $2.7m", nor because "revenue was down, but net income was $1,200": a word that carries a sign
 * counts in the figure's own clause, before it (since the clause began) or right after it
 * ("$2,500 was refunded", "13.8% below").
 */
function inClause(words: RegExp, masked: string, figure: Figure, after: string): boolean {
  const before = masked.slice(Math.max(0, figure.start - 200), figure.start);
  let from = 0;
  for (const match of before.matchAll(clauseStart)) from = match.index + match[0].length;
  if (words.test(before.slice(from))) return true;
  const end = clauseEnd.exec(after);
  return words.test(end === null ? after : after.slice(0, end.index));
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

const periodWord = String.raw`\b(?:week|wk|sprint|round|phase|release|version|day)`;
const listMark = String.raw`\s*(?:,|and|&|to|through|[–—-])\s*#?`;
/** "Week 45", "sprint 12", and the numbers after the first of "weeks 46 and 47", "weeks 44–47". */
const periodBefore = new RegExp(String.raw`(?:${periodWord}\s*#?|${periodWord}s\s+#?\d{1,3}(?:${listMark}\d{1,3})*${listMark})$`, "i");
/** The first of "weeks 46 and 47": "weeks" before it, and more numbers of the list after it ("over 2 weeks 120 orders" is no list). */
const pluralBefore = new RegExp(String.raw`${periodWord}s\s+#?$`, "i");
const listAfter = new RegExp(String.raw`^${listMark}\d`, "i");

/** Whether the figure is a period's number ("week 45", either number of "weeks 46 and 47"), not a figure. */
export function periodNumber(masked: string, figure: Figure): boolean {
  if (figure.kind !== "number") return false;
  const before = masked.slice(Math.max(0, figure.start - 40), figure.start);
  return periodBefore.test(before) || (pluralBefore.test(before) && listAfter.test(masked.slice(figure.end, figure.end + 12)));
}
