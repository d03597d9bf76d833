import type { HeldoutCase, HeldoutFigure } from "./heldout-case.js";

export interface Span {
  start: number;
  end: number;
}

const wordCharacter = /[\p{L}\p{N}]/u;
const digit = /\p{N}/u;

/** True when `needle` at `start` is a whole token: "3" is not the 3 of "30", "3.5" or "W3". */
function standsAlone(text: string, start: number, needle: string): boolean {
  const before = text[start - 1] ?? " ";
  const after = text.slice(start + needle.length, start + needle.length + 2);
  const startsWithWord = wordCharacter.test(needle[0] ?? "");
  const endsWithDigit = digit.test(needle[needle.length - 1] ?? "");
  if (startsWithWord && wordCharacter.test(before)) return false;
  if (endsWithDigit && (digit.test(after[0] ?? "") || /^[.,'\u00a0\u202f ]\p{N}/u.test(after))) return false;
  return true;
}

/** Every place `needle` occurs in `text` as a whole token, in order (every place at all when none is whole). */
export function occurrences(text: string, needle: string): Span[] {
  const all: Span[] = [];
  if (needle.length === 0) return all;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) all.push({ start: at, end: at + needle.length });
  const whole = all.filter((span) => standsAlone(text, span.start, needle));
  return whole.length > 0 ? whole : all;
}

/** Where a labelled figure sits in its answer; throws when the label does not match the answer (a broken case). */
export function figureSpan(heldout: HeldoutCase, figure: HeldoutFigure): Span {
  const found = occurrences(heldout.answer, figure.text)[figure.occurrence ?? 0];
  if (!found) throw new Error(`case ${heldout.id}: figure "${figure.text}" (occurrence ${figure.occurrence ?? 0}) is not in its answer`);
  return found;
}

export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}
