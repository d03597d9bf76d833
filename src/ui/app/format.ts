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

export const runLink = (runId: string) => `#/runs/${encodeURIComponent(runId)}`;
