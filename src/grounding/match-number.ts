import type { Figure } from "./read-figures.js";
import type { EvidenceNumber } from "./evidence.js";
import { alike, derive, fits, fitsChange, type Derivation, type Direction, type NumberMatch, type Wording } from "./derive.js";
import { allPairsUpTo } from "./pair-limit.js";
import { searchPairs } from "./pair-search.js";

export type { Derivation, Direction, NumberMatch, Wording };

export { allPairsUpTo };

const multipleKey = /ratio|multiple|times|factor|fold|leverage|coverage|roas|roi|ltv|turnover|(?:^|_)x(?:$|_)/i;
const percentKey =
  /pct|percent|rate|share|ratio|proportion|margin|growth|change|yoy|mom|wow|conversion|churn|retention|utili[sz]ation|occupancy|yield/i;
const changeKey = /change|growth|delta|diff|yoy|mom|wow|qoq|variance|(?:^|_)var(?:$|_)|increase/i;
const lossKey = /loss|deficit|shortfall|outflow|burn|negative|debt|expense|cost|writeoff|write_off/i;

function direct(claim: Figure, pool: readonly EvidenceNumber[], wording: Wording): NumberMatch | undefined {
  const { direction } = wording;
  // The closest value wins: "13" is the count of 13, not a refund of 13.22.
  let best: { number: EvidenceNumber; error: number } | undefined;
  for (const number of pool) {
    const { value } = number;
    // A fraction is not a percentage as it stands: 0.0612 is 6.12%, never 0.1%.
    if (claim.unit === "%" && Math.abs(value) < 1 && !/pct|percent/i.test(number.key)) continue;
    // A count of rows is no percentage, points or multiple: "3x" is not a table of three rows.
    if (claim.unit !== undefined && claim.unit !== "currency" && number.aggregate === "count") continue;
    // "12% of all tickets" is a share: as it stands, only a field of percentages or rates shows it, not a count of 12.
    if (claim.unit === "%" && wording.shareOf === true && !percentKey.test(number.key) && Math.abs(value) >= 1) continue;
    // A multiple as it stands is a field of multiples (`ltv_cac_ratio`), not 3.5 hours: else it is derived.
    if (claim.unit === "x" && !multipleKey.test(number.key)) continue;
    // "Revenue fell 5%" is not a change field of +5 (nor "rose 5%" one of -5, which the sign below already holds).
    if (direction === "down" && value > 0 && claim.value! > 0 && changeKey.test(number.key)) continue;
    // "A $3,400 outflow", "a loss of 1,200": a positive value is none unless its field says so (`net_loss`).
    if (value > 0 && wording.loss === true && !lossKey.test(number.key)) continue;
    const shown = fits(claim, value)
      ? value
      : // A sign is dropped only where the words carry it: "a loss of 1,200", "fell 5%"; "net income was 1,200" is not -1,200.
        value < 0 && claim.value! > 0 && wording.negative === true && direction !== "up" && fits(claim, -value)
        ? -value
        : // "(¥2,916.44)" after a count is an aside, not a negative: a parenthesised figure may be either sign.
          value > 0 && claim.parenthesised === true && fits(claim, -value)
          ? -value
          : undefined;
    if (shown === undefined) continue;
    const error = Math.abs(shown - claim.value!);
    if (best === undefined || error < best.error) best = { number, error };
    if (error === 0) break;
  }
  if (best) return { derivation: "value", operands: [best.number] };
  if (claim.unit === "%" || claim.unit === "pp") {
    for (const number of pool) {
      // A value converted to another unit (0.125 h of 7.5 min) is no fraction; "12% of" is a share, from a field of rates.
      if (number.key.includes(" in ") || (wording.shareOf === true && !percentKey.test(number.key))) continue;
      if (Math.abs(number.value) > 1) continue;
      const percent = number.value * 100;
      // A fraction's sign is compared as a value's is: "revenue change: 7.4%" is not -0.074, unless the words carry the sign.
      const signed = direction !== undefined || claim.value! < 0 || percent >= 0 || wording.negative === true;
      if (signed && fitsChange(claim, percent, direction)) return { derivation: "percent", operands: [number] };
    }
  }
  return undefined;
}

/** The value of `pool` the claim shows as it stands (or as a percentage of a fraction), if any. */
export function shownIn(claim: Figure, pool: readonly EvidenceNumber[]): EvidenceNumber | undefined {
  const wording: Wording = { direction: undefined, sums: false, differences: false };
  return (direct(claim, pool, wording) ?? (claim.scale === undefined ? undefined : direct(unscaled(claim), pool, wording)))?.operands[0];
}

/** "$12.4m" as a step that counts in millions shows it (`revenue_2025: 12.4`): the number as written, before its scale. */
function unscaled(claim: Figure): Figure {
  const { scale, ...rest } = claim;
  return { ...rest, value: claim.value! / scale!, precision: claim.precision! / scale! };
}

/**
 * The first ordered pair of `pool` (by the first operand's place, then the second's) that
 * `derive` makes the claim from: every pair of a small pool; of a large one, values of one
 * field (or a figure of the sentence itself). The plain scan: `searchPairs` finds the same
 * pair in a large pool without trying every pair.
 */
export function scanPairs(claim: Figure, pool: readonly EvidenceNumber[], wording: Wording): NumberMatch | undefined {
  const everyPair = pool.length <= allPairsUpTo;
  for (let first = 0; first < pool.length; first += 1) {
    for (let second = 0; second < pool.length; second += 1) {
      if (first === second) continue;
      const pair = [pool[first]!, pool[second]!] as const;
      if (!everyPair && !alike(...pair, wording)) continue;
      const derivation = derive(claim, pair, wording);
      if (derivation) return { derivation, operands: [...pair] };
    }
  }
  return undefined;
}

/**
 * How `claim` follows from `pool`, or undefined: a value shown (or its percentage), else a
 * derivation from two values. `pools.operands` is what derivations may combine (the values of
 * rows the sentence names, aggregates, scalars, and the sentence's own figures). A plain
 * figure is a sum or a difference only where the sentence's words say so.
 */
export function matchNumber(
  claim: Figure,
  pools: {
    direct: readonly EvidenceNumber[];
    operands: readonly EvidenceNumber[];
    /** The sentence's figures near the claim: operands too, after the steps' values. */
    nearby?: readonly EvidenceNumber[];
  },
  wording: Wording,
): NumberMatch | undefined {
  const match = (written: Figure) =>
    matchAtScale(written, pools, wording) ?? (written.scale === undefined ? undefined : matchAtScale(unscaled(written), pools, wording));
  // "Up 5.2% ($2,600)": brackets after a figure are an aside as often as a negative, for a derived figure too.
  return match(claim) ?? (claim.parenthesised === true && claim.value! < 0 ? match({ ...claim, value: -claim.value! }) : undefined);
}

function matchAtScale(
  claim: Figure,
  pools: { direct: readonly EvidenceNumber[]; operands: readonly EvidenceNumber[]; nearby?: readonly EvidenceNumber[] },
  wording: Wording,
): NumberMatch | undefined {
  const shown = direct(claim, pools.direct, wording);
  if (shown) return shown;
  const nearby = pools.nearby ?? [];
  const pool = nearby.length === 0 ? pools.operands : [...pools.operands, ...nearby];
  // Every pair of the values is quadratic in them, and a long answer has many figures to try: the pairs are searched by value.
  return Number.isFinite(claim.value) ? searchPairs(claim, pool, wording, pools.operands) : scanPairs(claim, pool, wording);
}
