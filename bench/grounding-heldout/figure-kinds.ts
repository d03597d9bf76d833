import type { FigureKind } from "./heldout-case.js";

/** Where a kind's promise comes from: docs/grounded-reports.md as it reads today, or issue 55's asks. */
export type Promise55 = "docs" | "issue-55";

export interface FigureKindInfo {
  promise: Promise55;
  /** What a correct figure of this kind looks like, and what the wrong ones do. */
  summary: string;
}

export const figureKinds: Record<FigureKind, FigureKindInfo> = {
  "direct-value": { promise: "docs", summary: "a value a cited output shows; wrong: transposed digits, another step's value" },
  rounding: { promise: "docs", summary: "a value rounded or cut to the precision written, k/M/B, 'about'; wrong: rounded the wrong way" },
  "unit-percent": {
    promise: "docs",
    summary: "fractions read as percents, pct fields as they stand, pp, multiples, scales; wrong: off by 100 or 1000",
  },
  "derivation-across-keys": {
    promise: "docs",
    summary: "sum, difference, ratio, share, % change of two fields whose keys differ (the docs' own table); wrong: the arithmetic is off",
  },
  "sum-average-of-named": {
    promise: "issue-55",
    summary: "a sum or average of three or more named items, or of two named rows; wrong: other items or bad arithmetic",
  },
  "change-with-direction": {
    promise: "docs",
    summary: "a change whose direction word agrees with the sign; wrong: direction flipped or size off",
  },
  sign: { promise: "issue-55", summary: "negatives written with -, −, parentheses or a word; wrong: a sign dropped or added" },
  "locale-format": {
    promise: "issue-55",
    summary: "en, de, fr, it, es, de-CH, en-IN separators and currency positions; wrong: digits swapped",
  },
  "number-in-words": { promise: "issue-55", summary: "numbers written in words ('fifteen', '2.3 million'); wrong: another number" },
  range: { promise: "issue-55", summary: "a range whose ends are the cited min and max (or low and high); wrong: one end off" },
  "entity-attribution": {
    promise: "issue-55",
    summary: "a figure claimed for an entity sits in that entity's object or row; wrong: it is another entity's",
  },
  superlative: { promise: "issue-55", summary: "'the largest/lowest/most/fewest' checked against the column; wrong: not the extreme" },
  "aggregate-mispaired": {
    promise: "issue-55",
    summary: "changes between two labelled periods and plain column totals; wrong: a 'change' that is min/max/mean of one column",
  },
};
