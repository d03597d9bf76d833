/**
 * JSON text with object keys sorted at every depth, so `{a:1,b:2}` and `{b:2,a:1}` give the
 * same string. Used to recognise a repeated tool call whatever order the model wrote its
 * arguments in. Cycles become "[Circular]" instead of throwing.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint") return JSON.stringify(value.toString());
    if (typeof value === "function" || typeof value === "symbol") return "null";
    return JSON.stringify(value) ?? "null";
  }
  if (ancestors.has(value)) return '"[Circular]"';
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => write(item, ancestors)).join(",")}]`;
  } else if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    text = write((value as { toJSON(): unknown }).toJSON(), ancestors);
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    text = `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], ancestors)}`).join(",")}}`;
  }
  ancestors.delete(value);
  return text;
}
