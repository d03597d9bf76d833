import { storeFailure, type JournalEntry } from "./checkpoint-store.js";
import { LeaseLostError } from "../core/errors.js";
import type { LeaseOptions } from "./run-lease.js";
import type { SecretKeys } from "../trust/secrets.js";
import { ModelCallLog } from "./model-calls.js";
import { andThen, isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { RunLease } from "./run-lease.js";

/** Where a durable run writes, under which id, and the lease that makes this process its one writer. */
export interface Durability {
  store: CheckpointStore;
  runId: string;
  lease?: RunLease | undefined;
  /** False when the run keeps no model calls (`DurableOptions.keepModelCalls`). */
  keepModelCalls?: boolean | undefined;
  /** How often a step cut short by a crash is started again (`DurableOptions.maxRecoveries`). */
  maxRecoveries?: number | undefined;
}

/**
 * Writes a run's checkpoints. Entries wait in a buffer until the next commit: the run commits
 * before a step's tool runs (with the ends before it: no tool of a dependent runs before the
 * end it depends on is kept), soon after a step or call ends (`commitSoon`: ends that land
 * together share one commit), and before its result is returned. What a process that dies
 * loses is what it buffered in the last few milliseconds. A write to an asynchronous store is
 * waited for; one to a synchronous store is done on return.
 */
export class Checkpoints {
  private buffer: JournalEntry[] = [];
  /** The append being written to an asynchronous store. */
  private inFlight: Promise<void> | undefined;
  /** The next append: it takes all that is buffered when the one in flight ends (group commit). */
  private queued: Promise<void> | undefined;
  /** A `commitSoon` is scheduled. */
  private soon = false;

  /** Where the checkpoints go: an inner run (an agent step's loop) is kept in the same store. */
  constructor(readonly durability: Durability) {}

  write(entries: JournalEntry[]): void {
    for (const entry of entries) this.buffer.push(entry);
  }

  /** Where the run keeps its model calls (they go with the next commit), unless it keeps none. */
  modelCalls(secretKeys: SecretKeys): ModelCallLog | undefined {
    if (this.durability.keepModelCalls === false) return undefined;
    return new ModelCallLog(
      (entries) => this.write(entries),
      secretKeys,
      () => this.commitSoon(),
    );
  }

  /**
   * Commits what is buffered: at once when the store is synchronous, else a promise. While an
   * append is in flight, steps that commit meanwhile share the next one: with a store across
   * a network, eight steps starting at once cost two round trips, not eight.
   */
  commit(): MaybePromise<void> {
    if (this.queued !== undefined) return this.queued;
    if (this.inFlight === undefined || this.buffer.length === 0) return this.inFlight ?? this.flush();
    const next = () => {
      this.queued = undefined;
      return this.flush();
    };
    this.queued = this.inFlight.then(next, next);
    return this.queued;
  }

  /**
   * Commits what is buffered once the event loop turns (`setImmediate`), unless a commit takes
   * it first: a step's end is kept within milliseconds of its tool's return, and ends that land
   * together share one commit. Never throws: a commit that fails keeps its entries for the next
   * (see `flush`), and a lost lease is the run's signal to stop, not this call's.
   */
  commitSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      try {
        const committed = this.commit();
        if (isPromiseLike(committed)) committed.then(undefined, ignore);
      } catch {
        // Kept for the next commit, which reports the failure to a caller that can act on it.
      }
    });
  }

  private flush(): MaybePromise<void> {
    if (this.buffer.length === 0) return this.inFlight;
    const entries = this.buffer;
    this.buffer = [];
    const { store, runId } = this.durability;
    let written: MaybePromise<void>;
    try {
      written = this.fenced(() => store.append(runId, entries, Date.now(), this.token()));
    } catch (error) {
      this.keepForNext(entries);
      throw error;
    }
    if (!isPromiseLike(written)) return undefined;
    const flight: Promise<void> = Promise.resolve(written)
      .catch((error: unknown) => {
        this.keepForNext(entries);
        throw error;
      })
      .finally(() => {
        if (this.inFlight === flight) this.inFlight = undefined;
      });
    this.inFlight = flight;
    return flight;
  }

  /**
   * Entries a failed append did not write go back before what was buffered since, so the next
   * commit writes them in order: an end is never lost behind a later start. An owner that lost
   * its lease writes nothing more, so it keeps nothing.
   */
  private keepForNext(entries: JournalEntry[]): void {
    if (this.durability.lease?.signal.aborted === true) return;
    this.buffer = entries.concat(this.buffer);
  }

  /**
   * Commits what is buffered and marks the run finished with `result`; then `alongside`, the
   * run's other writes once it has ended (what it learned for the next runs). On a store that
   * makes several writes one commit (SQLite) the three are one commit.
   */
  finish(result: unknown, alongside?: () => MaybePromise<void>): MaybePromise<void> {
    const { store, runId } = this.durability;
    if (store.batch !== undefined && this.inFlight === undefined && this.queued === undefined) return this.finishInOne(result, alongside);
    const committed = this.commit();
    const done = () =>
      andThen(
        this.fenced(() => store.finishRun(runId, result, Date.now(), this.token())),
        () => alongside?.(),
      );
    return committed === undefined ? done() : Promise.resolve(committed).then(done);
  }

  /**
   * The buffered entries, the run's end and `alongside` as one commit: all kept, or none (the
   * entries are then kept for the next commit, as a failed append's are). A store that answers a
   * write later after all (a wrapper that waits) gets the writes one after the other, as without
   * a batch.
   */
  private finishInOne(result: unknown, alongside: (() => MaybePromise<void>) | undefined): MaybePromise<void> {
    const { store, runId } = this.durability;
    const entries = this.buffer;
    this.buffer = [];
    let after: MaybePromise<void> = undefined;
    let written: MaybePromise<void>;
    try {
      written = this.fenced(() => {
        let later: PromiseLike<void> | undefined;
        store.batch!(() => {
          const token = this.token();
          const finish = () => store.finishRun(runId, result, Date.now(), token);
          const appended = entries.length > 0 ? store.append(runId, entries, Date.now(), token) : undefined;
          if (isPromiseLike(appended)) return void (later = Promise.resolve(appended).then(finish));
          const finished = finish();
          if (isPromiseLike(finished)) return void (later = finished);
          // Writes of its own that `alongside` makes are in the commit; any it waits for come after.
          after = alongside?.();
        });
        return later;
      });
    } catch (error) {
      this.keepForNext(entries);
      throw error;
    }
    if (!isPromiseLike(written)) return after;
    return Promise.resolve(written).then(
      () => alongside?.(),
      (error: unknown) => {
        this.keepForNext(entries);
        throw error;
      },
    );
  }

  /**
   * How a run kept inside this one (a strategy's plan run, an agent step's loop) is held and
   * kept: its lease as long as this one's, and waited for when busy (this run's own lease keeps
   * other processes out; an inner run held by someone else is one its last owner left behind as
   * it died); its model calls kept, and its steps recovered, as this run's are.
   */
  innerOptions(): { lease?: LeaseOptions; keepModelCalls?: boolean; maxRecoveries?: number } {
    const { lease, keepModelCalls, maxRecoveries } = this.durability;
    return {
      ...(lease === undefined ? {} : { lease: { ttlMs: lease.ttlMs, onBusy: "wait" as const } }),
      ...(keepModelCalls === false ? { keepModelCalls } : {}),
      ...(maxRecoveries === undefined ? {} : { maxRecoveries }),
    };
  }

  /**
   * Commits what is buffered as a run fails (its failed model call), so the failure can be
   * read in the store; a commit that fails too (the store gone, the lease lost) changes nothing.
   */
  async commitAsItFails(): Promise<void> {
    try {
      await this.commit();
    } catch {
      // The run's own error is the one to report.
    }
  }

  /** Stops renewing the run's lease and gives it up (the run is done here, finished or paused). */
  async close(): Promise<void> {
    await this.durability.lease?.release();
  }

  /** The lease's token, after checking it was not lost: a stale owner writes nothing at all. */
  private token(): number | undefined {
    const lease = this.durability.lease;
    if (lease?.signal.aborted) throw lease.signal.reason;
    return lease?.token;
  }

  /** A write; when the store refuses it because the run is another's now, the lease is lost: the run stops. */
  private fenced(write: () => MaybePromise<void>): MaybePromise<void> {
    const lose = (error: unknown): never => {
      if (error instanceof LeaseLostError) this.durability.lease?.markLost(error);
      throw storeFailure(this.durability.store, this.durability.runId, error, {
        happened: "a checkpoint could not be written",
        then: "continue the run by id once the store is back (what was not written runs again)",
      });
    };
    let written: MaybePromise<void>;
    try {
      written = write();
    } catch (error) {
      return lose(error);
    }
    if (!isPromiseLike(written)) return written;
    // A write the store never answers (it is out of reach) ends when the lease is given up.
    const lease = this.durability.lease;
    return (lease === undefined ? Promise.resolve(written) : untilLeaseLost(written, lease.signal)).catch(lose);
  }
}

function ignore(): void {}

/** The write, or the lease's loss if that comes first (the listener goes with the write: none pile up). */
function untilLeaseLost(written: PromiseLike<void>, lost: AbortSignal): Promise<void> {
  if (lost.aborted) return Promise.reject(lost.reason as Error);
  return new Promise((resolve, reject) => {
    const onLost = () => reject(lost.reason as Error);
    lost.addEventListener("abort", onLost, { once: true });
    written.then(
      () => (lost.removeEventListener("abort", onLost), resolve()),
      (error: unknown) => (lost.removeEventListener("abort", onLost), reject(error)),
    );
  });
}
