// The shape of a held-out grounding case: the steps an answer cites, the answer, and each figure in it
// labelled by hand as supported by the cited outputs or not. Written from docs/grounded-reports.md and
// from the shapes real reports take, never from what the checker does.

/** What a figure tests; `figureKinds` says which are promised by the docs today and which issue 55 asks for. */
export type FigureKind =
  | "direct-value"
  | "rounding"
  | "unit-percent"
  | "derivation-across-keys"
  | "sum-average-of-named"
  | "change-with-direction"
  | "sign"
  | "locale-format"
  | "number-in-words"
  | "range"
  | "entity-attribution"
  | "superlative"
  | "aggregate-mispaired";

export interface HeldoutFigure {
  /** The figure exactly as the answer writes it (for a range, the whole range). */
  text: string;
  /** Which occurrence of `text` in the answer, when it appears more than once (0 first). */
  occurrence?: number;
  /** True when the cited steps' outputs support the figure as the sentence states it. */
  correct: boolean;
  kind: FigureKind;
  /** For a wrong figure, what the outputs actually say; for a subtle correct one, why it holds. */
  note?: string;
}

export interface HeldoutStep {
  id: string;
  output: unknown;
}

export interface HeldoutCase {
  id: string;
  task: string;
  steps: HeldoutStep[];
  answer: string;
  figures: HeldoutFigure[];
}
