/**
 * The currency marks written next to a number, learned from Intl: every ISO code it knows
 * (`EUR`, `CHF`, `INR`), and every symbol it prints for one that is not just letters (`€`,
 * `₹`, `R$`, `US$`, `CN¥`). Letter-only symbols ("K", "L", "kr") would read too many words as money.
 */
const codes = new Set(Intl.supportedValuesOf("currency"));

function symbols(): Set<string> {
  const found = new Set<string>();
  for (const currency of codes) {
    for (const currencyDisplay of ["symbol", "narrowSymbol"] as const) {
      const symbol = new Intl.NumberFormat("en", { style: "currency", currency, currencyDisplay })
        .formatToParts(1)
        .find((part) => part.type === "currency")?.value;
      if (symbol !== undefined && symbol !== currency && /[^\p{L}.\s]/u.test(symbol)) found.add(symbol);
    }
  }
  return found;
}

const knownSymbols = symbols();

/** Words people write for money after a number ("40 dollars", "12 yuan"), and a few marks Intl spells as letters. */
const currencyWords = "dollars?|euros?|yuan|rupees?|francs?|pounds?|yen|RMB|Fr\\.|Rs\\.?";

/**
 * The shape of a currency mark, for the number reader's pattern: three capitals, a few
 * capitals before a symbol (`US$`, `CN¥`), or a symbol. Whether it is one is `isCurrency`'s
 * to say: one short shape reads faster than an alternation of every mark Intl knows.
 */
const shape =
  "[A-Z]{3}|[A-Z]{1,3}[^\\p{L}\\p{N}\\s.,;:!?()\\[\\]{}\"'’%+\\-−–—/\\\\#*_|<>=&@~^`]|[^\\p{L}\\p{N}\\s.,;:!?()\\[\\]{}\"'’%+\\-−–—/\\\\#*_|<>=&@~^`]";
export const leadingCurrency = shape;
export const trailingCurrency = `${shape}|${currencyWords}`;

/** Whether a mark the pattern took is a currency: an ISO code, a symbol Intl prints, or one of the words. */
export function isCurrency(mark: string): boolean {
  return codes.has(mark) || knownSymbols.has(mark) || new RegExp(`^(?:${currencyWords})$`).test(mark);
}
