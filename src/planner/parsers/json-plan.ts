import { errorMessage } from "../../core/errors.js";

export type PlanTextResult = { ok: true; plan: unknown } | { ok: false; error: string };

/**
 * Reads a JSON plan out of a model's answer: inside a code fence, or the outermost `{...}`
 * that holds `"steps"`, whatever prose surrounds it. A bare array of steps is accepted too.
 */
export function parseJsonPlan(text: string): PlanTextResult {
  // The longest candidates first, and not too many: a text of thousands of empty fences or
  // brackets would otherwise parse (and fail to parse) each one.
  const candidates = [...codeFences(text), ...outerObjects(text)].filter((candidate) => candidate !== "").slice(0, maxCandidates);
  let lastError = "no JSON object with a steps array was found";
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (Array.isArray(value)) return { ok: true, plan: { steps: value } };
      if (typeof value === "object" && value !== null && "steps" in value) return { ok: true, plan: value };
      lastError = 'the JSON has no "steps" array';
    } catch (error) {
      lastError = `the JSON does not parse: ${errorMessage(error)}`;
    }
  }
  return { ok: false, error: `${lastError}. Answer with one JSON object {"steps": [...]}` };
}

const maxCandidates = 32;

function codeFences(text: string): string[] {
  return [...text.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());
}

/**
 * The outermost balanced `{...}` (or `[...]`) spans, longest first, skipping brackets inside
 * strings. One pass with a stack of open brackets, so text of many unclosed brackets is read
 * in linear time: a bracket that never closes yields no span, and the spans closed inside it
 * stand on their own.
 */
function outerObjects(text: string): string[] {
  const closed: Array<{ start: number; end: number }> = [];
  const open: number[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      // Quotes matter only inside a bracket: prose around the JSON may quote freely.
      if (open.length > 0) inString = true;
    } else if (char === "{" || char === "[") open.push(index);
    else if ((char === "}" || char === "]") && open.length > 0) closed.push({ start: open.pop()!, end: index });
  }
  return outermost(closed)
    .map((span) => text.slice(span.start, span.end + 1))
    .sort((a, b) => b.length - a.length);
}

/** The spans no other span contains. */
function outermost(spans: Array<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const byStart = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Array<{ start: number; end: number }> = [];
  for (const span of byStart) if (kept.length === 0 || span.start > kept.at(-1)!.end) kept.push(span);
  return kept;
}
