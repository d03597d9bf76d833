import type { ClaimCounts } from "./claim-report.js";
import { readGrounding, type GroundingPolicy } from "./grounding-policy.js";

/** The grounding policies as a command line, an HTTP body or an MCP call names them: `off` is `false`. */
export const groundingChoices = ["flag", "repair", "strict", "off"] as const;
export type GroundingChoice = (typeof groundingChoices)[number];

/** `--grounding off` (or `"grounding": "off"`) checks nothing; the others are the policies. */
export function groundingOfChoice(choice: string | undefined): GroundingPolicy | false | undefined {
  if (choice === undefined) return undefined;
  return choice === "off" ? false : readGrounding(choice);
}

/** The strategy option a choice names: `{}` for none (the strategy's default, "flag"). */
export function groundingOption(choice: string | undefined): { grounding?: GroundingPolicy | false } {
  const grounding = groundingOfChoice(choice);
  return grounding === undefined ? {} : { grounding };
}

/**
 * What a pipeline stops on: a run that completed with claims its steps do not support (under
 * `flag` or `repair`; `strict` takes their sentences out). Undefined for any other run.
 */
export interface GroundingMark {
  policy: GroundingPolicy;
  claims: number;
  unsupported: number;
}

export function groundingMark(result: {
  status: string;
  provenance?: { policy: GroundingPolicy; counts: ClaimCounts } | undefined;
}): GroundingMark | undefined {
  const { provenance } = result;
  if (result.status !== "completed" || provenance === undefined || provenance.counts.unsupported === 0) return undefined;
  return { policy: provenance.policy, claims: provenance.counts.claims, unsupported: provenance.counts.unsupported };
}
