import { InvalidOptionsError } from "../core/errors.js";

/**
 * What a strategy does with its answer's claims: `flag` (the default) checks them and puts
 * the verdicts on the result; `repair` also asks the solver once more to fix the unsupported
 * ones; `strict` repairs, then takes out every sentence still holding an unsupported claim
 * (the run ends `incomplete` when no sentence with a claim is left). `false` checks nothing.
 */
export type GroundingPolicy = "flag" | "repair" | "strict";

/** Reads the `grounding` option: a policy, `false`, or undefined for the default `flag`. */
export function readGrounding(value: unknown): GroundingPolicy | false {
  if (value === undefined) return "flag";
  if (value === false || value === "flag" || value === "repair" || value === "strict") return value;
  throw new InvalidOptionsError(`grounding must be "flag", "repair", "strict" or false, not ${JSON.stringify(value)}`);
}
