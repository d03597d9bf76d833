// What a field's name says of its unit and scale: `revenue_usd_m` is in millions, `weight_kg` in kilograms.

/** The words of a field's name that say it counts in thousands, millions, crores, billions. */
const scaleWords = new Map<string, number>([
  ["k", 1e3],
  ["thousand", 1e3],
  ["thousands", 1e3],
  ["tsd", 1e3],
  ["lakh", 1e5],
  ["lakhs", 1e5],
  ["m", 1e6],
  ["mn", 1e6],
  ["mm", 1e6],
  ["mio", 1e6],
  ["million", 1e6],
  ["millions", 1e6],
  ["cr", 1e7],
  ["crore", 1e7],
  ["crores", 1e7],
  ["bn", 1e9],
  ["billion", 1e9],
  ["billions", 1e9],
  ["mrd", 1e9],
]);

/** The units a field's unit converts to, and the factor: kg to tonnes and grams, minutes to hours and seconds, … */
const conversions = new Map<string, Array<[string, number]>>([
  ["g", [["kg", 1e-3]]],
  [
    "kg",
    [
      ["t", 1e-3],
      ["g", 1e3],
    ],
  ],
  ["t", [["kg", 1e3]]],
  ["tonnes", [["kg", 1e3]]],
  ["km", [["m", 1e3]]],
  ["ms", [["s", 1e-3]]],
  [
    "s",
    [
      ["ms", 1e3],
      ["min", 1 / 60],
    ],
  ],
  [
    "sec",
    [
      ["ms", 1e3],
      ["min", 1 / 60],
    ],
  ],
  [
    "seconds",
    [
      ["ms", 1e3],
      ["min", 1 / 60],
    ],
  ],
  [
    "min",
    [
      ["s", 60],
      ["h", 1 / 60],
    ],
  ],
  [
    "minutes",
    [
      ["s", 60],
      ["h", 1 / 60],
    ],
  ],
  [
    "h",
    [
      ["min", 60],
      ["days", 1 / 24],
    ],
  ],
  [
    "hours",
    [
      ["min", 60],
      ["days", 1 / 24],
    ],
  ],
  [
    "days",
    [
      ["h", 24],
      ["weeks", 1 / 7],
    ],
  ],
  ["mb", [["gb", 1e-3]]],
  [
    "gb",
    [
      ["mb", 1e3],
      ["tb", 1e-3],
    ],
  ],
  ["tb", [["gb", 1e3]]],
]);

export function conversionsOf(words: readonly string[]): Array<[string, number]> {
  const unit = words.length > 1 ? words.at(-1)! : undefined;
  return unit === undefined ? [] : (conversions.get(unit) ?? []);
}

/** A scaled twin's field: its own, so that it pairs with its like (another year's) and never with the value it was scaled from. */
export function scaledKey(key: string, scale: number): string {
  return `${key} ×${scale.toExponential()}`;
}

/** The scale a field's name states, in a word after its first ("m" alone names no scale). */
export function scaleOf(words: readonly string[]): number | undefined {
  for (const word of words.slice(1)) {
    const scale = scaleWords.get(word);
    if (scale !== undefined) return scale;
  }
  return undefined;
}

/** Fields of money that payment APIs write in the currency's minor units (Stripe: `amount: 12900` is $129.00). */
const minorKey = /^(?:amount(?:_[a-z]+)*|fee|fees|net|total|subtotal|tax|unit_amount|balance|price)$/i;

/**
 * Where an object names its currency in lower case, as Stripe does (`currency: "usd"`), its
 * money fields count in the currency's minor units: the currency (upper case) and how many of
 * those make one (100 for USD, 1 for JPY, which has none).
 */
export function minorUnitsOf(object: Record<string, unknown>): { currency: string; per: number } | undefined {
  const currency = object.currency;
  if (typeof currency !== "string" || !/^[a-z]{3}$/.test(currency)) return undefined;
  try {
    const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return digits === 0 ? undefined : { currency: currency.toUpperCase(), per: 10 ** digits };
  } catch {
    return undefined;
  }
}

/** Whether a field of such an object is money in minor units (`amount`, `amount_refunded`, `fee`, `net`). */
export function inMinorUnits(key: string): boolean {
  return minorKey.test(key);
}
