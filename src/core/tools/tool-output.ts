/**
 * Keeps a tool result within `maxChars` characters of text. A result that fits is returned
 * unchanged (objects stay objects); one that does not becomes its text, cut, with a marker
 * that tells the model how much it is not seeing.
 */
export function limitOutput(output: unknown, maxChars: number): unknown {
  if (maxChars === Infinity) return output;
  const text = typeof output === "string" ? output : safeJson(output);
  if (text === undefined || text.length <= maxChars) return output;
  return `${text.slice(0, maxChars)}\n[truncated: showing ${maxChars} of ${text.length} characters]`;
}

/** The first `length` characters of a result's text, for events and progress displays. */
export function previewOf(output: unknown, length = 200): string {
  const text = typeof output === "string" ? output : (safeJson(output) ?? String(output));
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
