import type { MaybePromise } from "../core/maybe-async.js";

/**
 * What wakes a waiting run: its earliest timer (`at`, ms since 1970) or any event of a name it
 * waits for numbered after `afterSeq` (see `EventLog`).
 */
export interface RunWake {
  at?: number;
  events?: Array<{ name: string; afterSeq: number }>;
}

/** An event as the store keeps it, numbered in the order it arrived (`seq`, from 1). */
export interface StoredEvent {
  seq: number;
  /** The sender's id for it: the same event (name, id and target run) sent twice is kept once. */
  id: string;
  name: string;
  data: unknown;
  /** Sent to this run only (and the runs kept inside it); else to any run waiting for its name. */
  runId?: string;
  at: number;
  /** After this it is dropped: a run that starts waiting later never sees it. */
  expiresAt: number;
}

/**
 * Events sent to runs that wait for them (`sendEvent`), kept beside the runs. A run that
 * starts waiting takes the oldest kept event of its name nobody took yet (`take`), else waits
 * for the events numbered after `lastSeq()`, each of which wakes every run waiting for it once.
 */
export interface EventLog {
  /**
   * Keeps an event and gives its number; one whose name, id and target run (`runId`, or none) are
   * kept already is not kept again (`duplicate`, with the kept one's number). The same id under
   * another name, or sent to another run, is another event.
   */
  put(event: Omit<StoredEvent, "seq">): MaybePromise<{ seq: number; duplicate: boolean }>;
  /** The number of the last event kept; 0 when none was. */
  lastSeq(): MaybePromise<number>;
  /**
   * The unexpired events of `name` for `runId` (sent to it, to a run it is kept inside, or to
   * no run), numbered after `afterSeq` and up to `upTo`, oldest first, at most `limit`.
   */
  read(query: { name: string; runId: string; afterSeq: number; upTo?: number; at: number; limit?: number }): MaybePromise<StoredEvent[]>;
  /** Records that `runId` took event `seq`: true when no run had taken it before. */
  take(seq: number, runId: string, at: number): MaybePromise<boolean>;
}
