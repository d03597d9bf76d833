/** Pairs are tried among all values of a pool up to this many; beyond it, only among like values (`alike`). */
export const allPairsUpTo = 40;
