import { randomUUID } from "node:crypto";
import { systemClock, type Clock } from "../core/clock.js";
import { InvalidOptionsError } from "../core/errors.js";
import { jsonSafe } from "../core/json-safe.js";
import type { CheckpointStore, EventLog } from "../journal/checkpoint-store.js";

/** How long an event no run took is kept for a run that starts waiting for it later: 24 hours. */
export const defaultEventKeepMs = 24 * 60 * 60 * 1000;

export interface SendEventOptions {
  /** The store the waiting runs are kept in. */
  store: CheckpointStore;
  /** The event's name, as a step's `waitFor.event` names it. */
  event: string;
  /** What the waiting step gets as its output (JSON). */
  data?: unknown;
  /** Only this run (and the runs kept inside it) may take it; else any run waiting for the name. */
  runId?: string | undefined;
  /**
   * The sender's id for the event: the same event (name, id and `runId`) sent again is kept once (a
   * retried webhook); the same id under another name, or to another run, is another event. Default: a new id.
   */
  id?: string | undefined;
  /** How long it is kept for a run that starts waiting later (default 24 h); a run waiting already is woken by it at once. */
  keepMs?: number | undefined;
  clock?: Clock | undefined;
}

/** What `sendEvent` kept: the event's number in the store, and whether the same event (name, id, run) had been sent before. */
export interface SentEvent {
  id: string;
  seq: number;
  duplicate: boolean;
}

/**
 * Sends an event to the runs that wait for it (`waitFor` steps): it is kept in the store, and
 * the next `wakeDueRuns` (or `planloop serve`) continues every run waiting for it. Sent before
 * any run waits, it is kept for `keepMs` and taken by the first run that starts waiting for it.
 *
 * @example
 * await sendEvent({ store, event: "export-ready", data: { rows: 1200, day: "2026-12-07" } });
 */
export async function sendEvent(options: SendEventOptions): Promise<SentEvent> {
  const log = eventLogOf(options?.store);
  const { event, runId, keepMs = defaultEventKeepMs } = options;
  if (typeof event !== "string" || event.trim() === "")
    throw new InvalidOptionsError("sendEvent needs { event }: the name a waitFor step waits for");
  if (runId !== undefined && (typeof runId !== "string" || runId === ""))
    throw new InvalidOptionsError("sendEvent: runId must be a run's id");
  if (typeof keepMs !== "number" || !(keepMs > 0))
    throw new InvalidOptionsError(`sendEvent: keepMs must be a positive number of ms, not ${String(keepMs)}`);
  const id = options.id ?? randomUUID();
  if (typeof id !== "string" || id === "") throw new InvalidOptionsError("sendEvent: id must be a non-empty string");
  const at = (options.clock ?? systemClock).now();
  const data = jsonSafe(options.data ?? null);
  const kept = await log.put({ id, name: event, data, ...(runId === undefined ? {} : { runId }), at, expiresAt: at + keepMs });
  return { id, ...kept };
}

/** The store's events; a store without them is refused, naming it. */
export function eventLogOf(store: CheckpointStore | undefined): EventLog {
  if (store === undefined || typeof store !== "object")
    throw new InvalidOptionsError("sendEvent needs { store }: the store the waiting runs are kept in");
  if (store.events === undefined)
    throw new InvalidOptionsError(`${store.location ?? "this store"} keeps no events: use memoryStore, sqliteStore or postgresStore`);
  return store.events;
}
