import type { HeldoutCase, HeldoutFigure } from "./heldout-case.js";

export interface Span {
  start: number;
  end: number;
}

/** Every place `needle` occurs in `text`, in order. */
export function occurrences(text: string, needle: string): Span[] {
  const spans: Span[] = [];
  if (needle.length === 0) return spans;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) spans.push({ start: at, end: at + needle.length });
  return spans;
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
