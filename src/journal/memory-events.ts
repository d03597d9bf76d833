import type { EventLog, RunWake, StoredEvent } from "./event-log.js";

/** Whether an event sent to `target` (or to any run) reaches run `runId`. */
export function eventReaches(target: string | undefined, runId: string): boolean {
  return target === undefined || target === runId || runId.startsWith(`${target}/`);
}

/** The memory store's events, in the order they came. */
export function memoryEvents(): { log: EventLog; all: StoredEvent[] } {
  const all: StoredEvent[] = [];
  const taken = new Set<number>();
  const log: EventLog = {
    put(event) {
      // An event's key: its name, id and target run (a duplicate is only ever one of the same event).
      const known = all.find((kept) => kept.name === event.name && kept.id === event.id && kept.runId === event.runId);
      if (known !== undefined) return { seq: known.seq, duplicate: true };
      const seq = all.length + 1;
      all.push(JSON.parse(JSON.stringify({ ...event, seq })) as StoredEvent);
      return { seq, duplicate: false };
    },
    lastSeq: () => all.length,
    read: ({ name, runId, afterSeq, upTo = Infinity, at, limit = Infinity }) =>
      all
        .filter(
          (event) =>
            event.name === name && event.seq > afterSeq && event.seq <= upTo && event.expiresAt > at && eventReaches(event.runId, runId),
        )
        .slice(0, limit)
        .map((event) => JSON.parse(JSON.stringify(event)) as StoredEvent),
    take(seq) {
      if (taken.has(seq)) return false;
      taken.add(seq);
      return true;
    },
  };
  return { log, all };
}

/** When a waiting run became due (its timer's time, or the time of the first event that reaches it); undefined if it is not. */
export function dueSince(runId: string, wake: RunWake | undefined, at: number, events: readonly StoredEvent[]): number | undefined {
  let due = wake?.at !== undefined && wake.at <= at ? wake.at : undefined;
  for (const { name, afterSeq } of wake?.events ?? []) {
    const event = events.find(
      (kept) => kept.seq > afterSeq && kept.name === name && kept.expiresAt > at && eventReaches(kept.runId, runId),
    );
    if (event !== undefined) due = Math.min(due ?? Infinity, event.at);
  }
  return due;
}
