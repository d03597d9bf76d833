// How numbers and times read in the page.

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min ${Math.round((ms % 60_000) / 1000)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function when(at: number): string {
  const date = new Date(at);
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString() : date.toLocaleString();
}

export function cost(usd: number | undefined): string {
  return usd === undefined ? "-" : `$${usd.toFixed(4)}`;
}

export function count(value: number | undefined): string {
  return value === undefined ? "-" : value.toLocaleString("en");
}

/** A value as the page shows it: text as it is, anything else as indented JSON. */
export function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/**
 * A call's arguments as the page shows them, field by field: a text (an e-mail's body) as it
 * is, with its line breaks, anything else as indented JSON. Undefined for arguments that are
 * not an object of fields (shown whole).
 */
export function argumentFields(args: unknown): Array<{ name: string; text: string }> | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  return Object.entries(args).map(([name, value]) => ({ name, text: shown(value) }));
}

/**
 * A run id short enough for one line: the middle of a long one is cut, so that both a
 * schedule's name and the end of its fire time (`weekly@2026-12-07T08:00:00.000Z`) stay. The
 * whole id goes in the link's title.
 */
export function shortRunId(runId: string, max = 36): string {
  const characters = [...runId];
  if (characters.length <= max) return runId;
  const head = Math.ceil((max - 1) / 2);
  return `${characters.slice(0, head).join("")}…${characters.slice(characters.length - (max - 1 - head)).join("")}`;
}

export const runLink = (runId: string) => `#/runs/${encodeURIComponent(runId)}`;
