import type { Provenance } from "../grounding/claim-report.js";

/** The exit code of `planloop ask` when a run completed with claims its steps do not support: a pipeline stops on it. */
export const unsupportedClaimsExit = 4;

/** Unsupported claims listed under the summary line, at most this many. */
const shownClaims = 10;

/**
 * What a result's provenance says, for the terminal: one line of counts, then each
 * unsupported claim with why (`✗ ¥71,000.00: not in s4, nor in any other step`).
 */
export function groundingLines(provenance: Provenance | undefined): string[] {
  if (provenance === undefined) return [];
  const { counts, policy } = provenance;
  const done = [
    provenance.repaired ? "repaired once" : "",
    provenance.removed.length > 0 ? `${provenance.removed.length} sentences taken out` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const head =
    counts.unsupported === 0
      ? `grounded (${policy}): ${counts.claims} claims, ${counts.supported} supported by the steps they cite, ${counts.uncited} uncited`
      : `grounding (${policy}): ${counts.unsupported} of ${counts.claims} claims unsupported, ${counts.supported} supported, ${counts.uncited} uncited`;
  const unsupported = provenance.claims.filter((claim) => claim.status === "unsupported");
  return [
    `${head}${done ? ` (${done})` : ""}`,
    ...unsupported.slice(0, shownClaims).map((claim) => `  ✗ ${claim.reason ?? claim.text}`),
    ...(unsupported.length > shownClaims ? [`  … and ${unsupported.length - shownClaims} more`] : []),
  ];
}
