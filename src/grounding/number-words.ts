import { createRequire } from "node:module";
import type nlpType from "compromise";

// The parser is loaded on the first answer that has a number in words: importing planloop does not pay for it.
const require = createRequire(import.meta.url);
let parser: typeof nlpType | undefined;
const nlp = (text: string) => (parser ??= require("compromise") as typeof nlpType)(text);

/** A number written in words ("fifteen", "two hundred and forty"), where it stands in the text. */
export interface WordNumber {
  text: string;
  start: number;
  end: number;
  value: number;
}

const shareWords = /\b((?:a|one)\s+(?:third|quarter|fifth|tenth)|half)(?=\s+(?:of|the)\b)/gi;
const shareValues: Record<string, number> = { third: 1 / 3, quarter: 0.25, fifth: 0.2, tenth: 0.1, half: 0.5 };

/** Whether a text may hold a number in words at all: the parser runs only on those that do. */
const numberWord =
  /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|thirds?|quarters?|fifths?|tenths?|third|half)\b/i;

/**
 * The numbers written in words in `text`, read by compromise's number parser. Digits are left
 * to the digit reader, and a lone "one" or "a" is not a figure ("one of the regions").
 */
export function readNumberWords(text: string): WordNumber[] {
  if (!numberWord.test(text)) return [];
  const found: WordNumber[] = [];
  // "A third of", "half of": a share the parser leaves out (alone, "half" and "a quarter" are too loose to check).
  for (const match of text.matchAll(shareWords)) {
    const written = match[1]!;
    found.push({
      text: written,
      start: match.index,
      end: match.index + written.length,
      value: shareValues[written.split(/\s+/).at(-1)!.toLowerCase()]!,
    });
  }
  for (const match of nlp(text).numbers().json({ offset: true }) as Array<{
    text: string;
    number?: { num?: number };
    offset: { start: number; length: number };
  }>) {
    const value = match.number?.num;
    const written = match.text.replace(/[\s.,;:!?]+$/, "");
    if (value === undefined || !Number.isFinite(value) || /\d/.test(written) || !numberWord.test(written)) continue;
    const start = match.offset.start;
    if (found.some((share) => share.start < start + written.length && share.end > start)) continue;
    found.push({ text: written, start, end: start + written.length, value });
  }
  return found;
}
