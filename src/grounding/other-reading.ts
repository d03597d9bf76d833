import type { NumberMatch } from "./match-number.js";
import { readFigures, type Figure } from "./read-figures.js";
import type { SentenceContext } from "./sentence-context.js";

/** Digits grouped by dots only, as German, Italian and Spanish write thousands ("98.765", "1.234.567"). */
const dotGrouped = /^[^\d]*\d{1,3}(?:\.\d{3})+[^\d]*$/;

/** Words of the languages that group thousands with a dot (German, Italian, Spanish): "der", "hatte", "della", "fue". */
const dotLanguageWords =
  /(?<![\p{L}])(?:der|die|das|und|mit|hatte|hat|betrug|lag|lagen|wurde|il|lo|gli|della|delle|con|sono|ha|el|los|las|del|fue|fueron|una|y)(?![\p{L}])/giu;

/**
 * "Der Shop hatte 98.765 Besucher": where neither the `locale` option nor the answer's
 * unambiguous numbers say how the answer writes, "98.765" is read in English (98.765) and, in a
 * sentence whose words are German, Italian or Spanish (two of theirs or more), if no step shows
 * 98.765, as those languages write it (98,765).
 */
export function otherReading(
  figure: Figure,
  context: SentenceContext,
  match: (other: Figure) => NumberMatch | undefined,
): NumberMatch | undefined {
  if (context.locale !== undefined || figure.range !== undefined || !dotGrouped.test(figure.text)) return undefined;
  const words = new Set([...context.folded.matchAll(dotLanguageWords)].map((word) => word[0]));
  if (words.size < 2) return undefined;
  const [other] = readFigures(figure.text, { locale: "de" });
  if (other?.kind !== "number" || other.value === undefined || other.precision === undefined || other.value === figure.value)
    return undefined;
  return match({ ...figure, value: other.value, precision: other.precision });
}
