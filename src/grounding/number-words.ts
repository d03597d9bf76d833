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

/** Whether a text may hold a number in words at all: the parser runs only on those that do. */
const numberWord =
  /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen)\b/i;

/**
 * The numbers written in words in `text`, read by compromise's number parser. Digits are left
 * to the digit reader, and a lone "one" or "a" is not a figure ("one of the regions").
 */
export function readNumberWords(text: string): WordNumber[] {
  if (!numberWord.test(text)) return [];
  const found: WordNumber[] = [];
  for (const match of nlp(text).numbers().json({ offset: true }) as Array<{
    text: string;
    number?: { num?: number };
    offset: { start: number; length: number };
  }>) {
    const value = match.number?.num;
    const written = match.text.replace(/[\s.,;:!?]+$/, "");
    if (value === undefined || !Number.isFinite(value) || /\d/.test(written) || !numberWord.test(written)) continue;
    const start = match.offset.start;
    found.push({ text: written, start, end: start + written.length, value });
  }
  return found;
}
