import type { FigureKind } from "./read-figures.js";
import type { Derivation } from "./match-number.js";
import type { Sentence } from "./split-sentences.js";
import type { GroundingPolicy } from "./grounding-policy.js";

export type { Sentence, FigureKind as ClaimKind, Derivation, GroundingPolicy };

/**
 * A claim's verdict: `supported` (found in the steps its sentence cites), `uncited` (its
 * sentence cites no step, and some step shows it), or `unsupported` (no step it may rest on shows it).
 */
export type ClaimStatus = "supported" | "unsupported" | "uncited";

/** A value a claim was matched with: which step, where in its output, what it holds. */
export interface MatchedValue {
  step: string;
  path: string;
  value: number | string;
}

export interface CheckedClaim {
  kind: FigureKind;
  /** As written in the answer. */
  text: string;
  /** Offsets in the answer. */
  start: number;
  end: number;
  /** Index into the report's `sentences`. */
  sentence: number;
  status: ClaimStatus;
  /** The steps that show it (for `supported` and `uncited`); "task" when the task's own text does. */
  steps: string[];
  matched: MatchedValue[];
  /** For numbers: how it follows from what was matched. */
  derivation?: Derivation;
  /** For `unsupported`: why, in a line a solver can act on. */
  reason?: string;
}

export interface ClaimCounts {
  claims: number;
  supported: number;
  unsupported: number;
  uncited: number;
}

/** What `checkClaims` found: every sentence with what it cites, every claim with its verdict. */
export interface ClaimReport {
  sentences: Sentence[];
  claims: CheckedClaim[];
  counts: ClaimCounts;
}

export function countClaims(claims: readonly CheckedClaim[]): ClaimCounts {
  const counts: ClaimCounts = { claims: claims.length, supported: 0, unsupported: 0, uncited: 0 };
  for (const claim of claims) counts[claim.status] += 1;
  return counts;
}

/** A sentence's verdict: its worst claim's (unsupported, then uncited), or "none" without claims. */
export function sentenceStatus(report: ClaimReport, sentence: number): ClaimStatus | "none" {
  const claims = report.claims.filter((claim) => claim.sentence === sentence);
  if (claims.length === 0) return "none";
  if (claims.some((claim) => claim.status === "unsupported")) return "unsupported";
  if (claims.some((claim) => claim.status === "uncited")) return "uncited";
  return "supported";
}

/** The result's `provenance`: every sentence and claim of the output as returned, with the policy's work. */
export interface Provenance extends ClaimReport {
  policy: GroundingPolicy;
  /** The solver rewrote the answer once (`repair`, `strict`) and that answer was kept. */
  repaired: boolean;
  /** `strict`: the sentences taken out of the answer. */
  removed: string[];
  /** Why the repair call did not happen or was not used, when it was due. */
  repairSkipped?: string;
}
