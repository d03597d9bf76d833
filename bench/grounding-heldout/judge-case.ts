import { checkClaims, type ClaimReport } from "../../src/index.js";
import { figureSpan, occurrences, overlaps, type Span } from "./figure-spans.js";
import type { HeldoutCase, HeldoutFigure } from "./heldout-case.js";

/** One labelled figure and what the checker said about it. */
export interface FigureVerdict {
  caseId: string;
  figure: HeldoutFigure;
  /** An `unsupported` claim overlaps the figure: under `strict` its sentence would be taken out. */
  flagged: boolean;
  /** Some claim of any status overlaps the figure. */
  read: boolean;
  /** The reasons of the unsupported claims on the figure, for the report. */
  reasons: string[];
}

type Claim = ClaimReport["claims"][number];

/**
 * Places each claim in the answer from the documented shape only (`text`, `status`, `reason`): the
 * k-th claim with a given text is the k-th place that text occurs. A claim whose text is not in the
 * answer as written is placed on every figure whose digits contain its digits.
 */
function placeClaims(answer: string, claims: readonly Claim[]): { claim: Claim; spans: Span[] | "by-digits" }[] {
  const seen = new Map<string, number>();
  return claims.map((claim) => {
    const index = seen.get(claim.text) ?? 0;
    seen.set(claim.text, index + 1);
    const all = occurrences(answer, claim.text);
    const at = all[index] ?? all[all.length - 1];
    return { claim, spans: at ? [at] : "by-digits" };
  });
}

const digitsOf = (text: string) => text.replace(/\D/g, "");

export interface CaseVerdict {
  figures: FigureVerdict[];
  /** Claims whose text is not in the answer as written, placed by their digits instead. */
  claimsPlacedByDigits: number;
}

/** Checks one case with the public `checkClaims` and judges each labelled figure. */
export function judgeCase(heldout: HeldoutCase): CaseVerdict {
  const report = checkClaims(heldout.answer, heldout.steps, { task: heldout.task });
  const placed = placeClaims(heldout.answer, report.claims);
  const claimsPlacedByDigits = placed.filter(({ spans }) => spans === "by-digits").length;
  const figures = heldout.figures.map((figure) => {
    const span = figureSpan(heldout, figure);
    const onFigure = placed.filter(({ claim, spans }) =>
      spans === "by-digits"
        ? digitsOf(claim.text).length > 0 && digitsOf(figure.text).includes(digitsOf(claim.text))
        : spans.some((at) => overlaps(at, span)),
    );
    const unsupported = onFigure.filter(({ claim }) => claim.status === "unsupported");
    return {
      caseId: heldout.id,
      figure,
      flagged: unsupported.length > 0,
      read: onFigure.length > 0,
      reasons: unsupported.map(({ claim }) => `${claim.text}: ${claim.reason ?? "(no reason)"}`),
    };
  });
  return { figures, claimsPlacedByDigits };
}
