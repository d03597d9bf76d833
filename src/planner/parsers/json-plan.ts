import { errorMessage } from "../../core/errors.js";

export type PlanTextResult = { ok: true; plan: unknown } | { ok: false; error: string };

/**
 * Reads a JSON plan out of a model's answer: inside a code fence, or the outermost `{...}`
 * that holds `"steps"`, whatever prose surrounds it. A bare array of steps is accepted too.
 */
export function parseJsonPlan(text: string): PlanTextResult {
  const candidates = [...codeFences(text), ...outerObjects(text)];
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

function codeFences(text: string): string[] {
  return [...text.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());
}

/** Balanced `{...}` (or `[...]`) spans, longest first, skipping braces inside strings. */
function outerObjects(text: string): string[] {
  const spans: string[] = [];
  for (let start = 0; start < text.length; start += 1) {
    const open = text[start];
    if (open !== "{" && open !== "[") continue;
    const end = matchingClose(text, start);
    if (end !== -1) {
      spans.push(text.slice(start, end + 1));
      start = end;
    }
  }
  return spans.sort((a, b) => b.length - a.length);
}

function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}
