import type { HeldoutCase } from "../heldout-case.js";
import { attributionCases } from "./attribution.js";
import { changeCases } from "./changes.js";
import { derivationCases } from "./derivations.js";
import { directValueCases } from "./direct-values.js";
import { localeCases } from "./locales.js";
import { mispairedAggregateCases } from "./mispaired-aggregates.js";
import { numberInWordsCases } from "./numbers-in-words.js";
import { reportCases } from "./reports.js";
import { rangeCases } from "./ranges.js";
import { roundingCases } from "./rounding.js";
import { signCases } from "./signs.js";
import { sumAverageCases } from "./sums-averages.js";
import { superlativeCases } from "./superlatives.js";
import { unitPercentCases } from "./units-percents.js";

/** Every held-out case, grouped by the kind most of its figures test. */
export const heldoutCases: HeldoutCase[] = [
  ...directValueCases,
  ...roundingCases,
  ...unitPercentCases,
  ...derivationCases,
  ...sumAverageCases,
  ...changeCases,
  ...signCases,
  ...localeCases,
  ...numberInWordsCases,
  ...rangeCases,
  ...attributionCases,
  ...superlativeCases,
  ...mispairedAggregateCases,
  ...reportCases,
];
