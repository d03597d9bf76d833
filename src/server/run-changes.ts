import type { PlanloopEvent } from "../core/events.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { topRunId } from "../journal/run-feed.js";

/**
 * Wakes a run's open streams when their run changed: at once when this process's run wrote
 * something (`changed`), and from the store's one change feed (`watchRuns`: Postgres
 * LISTEN/NOTIFY, SQLite one poller) for what any process wrote. Every stream of the server
 * shares that one feed; a store without a feed is looked at by each stream every `pollMs`.
 */
export class RunChanges {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly listeners = new Map<string, Set<(event: PlanloopEvent) => void>>();
  private readonly keptNotes = new Map<string, Set<KeptChanges>>();
  private unwatch: (() => void) | undefined;
  private closed = false;

  /** `store`: whose feed wakes the streams; without it (or a store without a feed), streams poll. */
  constructor(private readonly store?: CheckpointStore) {}

  /** Whether the store's feed wakes the streams (they need not poll). */
  get fed(): boolean {
    return this.store?.watchRuns !== undefined;
  }

  /** Hears the run's events as this process's run emits them (live: an MCP call's progress); returns how to stop. */
  listen(runId: string, listener: (event: PlanloopEvent) => void): () => void {
    const listeners = this.listeners.get(runId) ?? new Set();
    this.listeners.set(runId, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(runId);
    };
  }

  /**
   * A note, for a stream's life, of whether a run kept inside `runId` may have changed since the
   * stream last took it (`take`): set by this process's writes to a kept run (`<runId>/…`), by the
   * feed (which names no kept run, so any of its news may be one), and at first. A stream that
   * finds it unset reads its run alone, not the rows of its kept runs (a query a wake, 0.12–0.17
   * ms: bench/serve-cost.bench.ts, item 2). Meaningful only when `fed`: without a feed a stream
   * wakes on its own timer, not on news, and reads everything.
   */
  keptChanges(runId: string): KeptChanges {
    const notes = this.keptNotes.get(runId) ?? new Set();
    this.keptNotes.set(runId, notes);
    const note = new KeptChanges(() => {
      notes.delete(note);
      if (notes.size === 0 && this.keptNotes.get(runId) === notes) this.keptNotes.delete(runId);
    });
    notes.add(note);
    return note;
  }

  /**
   * Resolves at the run's next change, here or (with a feed) in any process; after `ms` too when
   * given, whichever comes first (a stream over a fed store gives none: it has nothing to look
   * at until its run changes); at once when `signal` aborts (the stream closed).
   */
  next(runId: string, ms: number | undefined, signal?: AbortSignal): Promise<void> {
    if (this.fed && this.unwatch === undefined && !this.closed) this.unwatch = this.store!.watchRuns!((runIds) => this.fromFeed(runIds));
    return new Promise((resolve) => {
      const waiters = this.waiting.get(runId) ?? new Set();
      this.waiting.set(runId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(runId) === waiters) this.waiting.delete(runId);
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      waiters.add(done);
      if (signal?.aborted) done();
      else signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** The run (or a run kept inside it: `<runId>/…`) wrote something, or emitted `event`. */
  changed(runId: string, event?: PlanloopEvent): void {
    const top = topRunId(runId);
    if (event !== undefined) for (const listener of [...(this.listeners.get(top) ?? [])]) listener(event);
    if (runId !== top) this.noteKept(top);
    for (const id of new Set([runId, top])) this.wake(id);
  }

  /** Drops the run's entry once no stream waits on it. */
  forget(runId: string): void {
    if (this.waiting.get(runId)?.size === 0) this.waiting.delete(runId);
  }

  /** How many streams wait for a change now (for tests and a server's health). */
  get waiters(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.size;
    return count;
  }

  /** Stops listening to the store's feed, and wakes every stream still waiting (the server closes). */
  close(): void {
    this.closed = true;
    this.unwatch?.();
    this.unwatch = undefined;
    for (const id of [...this.keptNotes.keys()]) this.noteKept(id);
    for (const id of [...this.waiting.keys()]) this.wake(id);
  }

  private fromFeed(runIds: readonly string[] | "any"): void {
    for (const id of runIds === "any" ? [...this.keptNotes.keys()] : runIds) this.noteKept(topRunId(id));
    for (const id of runIds === "any" ? [...this.waiting.keys()] : runIds) this.wake(id);
  }

  private noteKept(top: string): void {
    for (const note of this.keptNotes.get(top) ?? []) note.changed = true;
  }

  private wake(runId: string): void {
    for (const wake of [...(this.waiting.get(runId) ?? [])]) wake();
  }
}

/** Whether a run kept inside a stream's run may have changed since the stream last looked (see `RunChanges.keptChanges`). */
export class KeptChanges {
  /** Set at first: a stream's first look reads everything. */
  changed = true;

  constructor(readonly stop: () => void) {}

  /** Whether a kept run may have changed since the last take; unset until the next change. */
  take(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }
}
