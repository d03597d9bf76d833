import { storeFailure, type CheckpointStore, type StoredRun } from "./checkpoint-store.js";
import { InvalidOptionsError, LeaseLostError, RunBusyError } from "../core/errors.js";
import { isPromiseLike } from "../core/maybe-async.js";
import { leaseOwnerIsGone, leaseOwnerName } from "./lease-owner.js";

/** How a durable run holds its lease (see docs/durable-runs.md, "Many processes"). */
export interface LeaseOptions {
  /**
   * How long the lease lasts unless renewed, in milliseconds; default 30 s. It is renewed
   * every third of that while the run works, so a slow tool keeps it; a process that dies
   * holds the run for at most this long.
   */
  ttlMs?: number | undefined;
  /**
   * What a call does when another process runs the same `runId`: `"fail"` at once with a
   * `RunBusyError` naming the owner and when its lease runs out (default), or `"wait"` until
   * the run is free, and then continue it (or hand back its result, if it finished).
   */
  onBusy?: "fail" | "wait" | undefined;
  /**
   * This run's lease, taken already (`RunLease.take`): the run goes on under it rather than
   * taking another, and gives it up when it stops. A caller that must know the run is its own
   * before it answers (a person's decision reported kept) takes the lease first and hands it on.
   */
  held?: RunLease | undefined;
}

const defaultTtlMs = 30_000;

/** What a lease's taker knew of its run: created empty for `entry`, or read under the lease (raw, as the store gave it). */
export type KnownRun = { kind: "new"; entry: string } | { kind: "read"; stored: StoredRun | undefined };

function ignore(): void {}

/**
 * A stored run's lease while this process owns it: its token fences every write, a timer
 * renews it, and `signal` aborts the moment it is lost (a renewal refused, or a write refused
 * because another process took the run over), so the run stops starting steps and calls.
 */
export class RunLease {
  private readonly lost = new AbortController();
  private timer: ReturnType<typeof setInterval> | undefined;
  private renewedAt: number;
  /** A renewal is waiting for the store's answer. */
  private renewing = false;
  private released = false;
  /** What was known of the run as this lease was taken (created empty: `ofNewRun`; read under it: `takeReading`), until the run is opened. */
  private known: KnownRun | undefined;

  /** How long a lease lasts unless renewed when `LeaseOptions.ttlMs` says nothing (ms). */
  static readonly defaultTtlMs = defaultTtlMs;

  readonly token: number;
  readonly ttlMs: number;
  /** The store's clock less this process's (ms): the lease is counted on the store's clock (`CheckpointStore.now`). */
  readonly clockOffsetMs: number;

  private constructor(
    private readonly store: CheckpointStore,
    readonly runId: string,
    held: { token: number; ttlMs: number; clockOffsetMs: number },
  ) {
    this.token = held.token;
    this.ttlMs = held.ttlMs;
    this.clockOffsetMs = held.clockOffsetMs;
    this.renewedAt = Date.now();
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(held.ttlMs / 3)));
    this.timer.unref?.();
  }

  /**
   * Takes the run's lease, waiting for it when `onBusy` is "wait"; a busy run fails with
   * `RunBusyError` otherwise. A lease held by a process of this host that is gone (killed,
   * crashed) is taken over at once, not after it runs out.
   */
  static async take(
    store: CheckpointStore,
    runId: string,
    options: { lease?: LeaseOptions | undefined; signal?: AbortSignal | undefined },
  ): Promise<RunLease> {
    const held = options.lease?.held;
    if (held !== undefined) return heldFor(held, runId);
    const { ttlMs, onBusy } = readLeaseOptions(options.lease);
    const owner = leaseOwnerName();
    const offset = await clockOffset(store, runId);
    for (;;) {
      let answer = await acquire(store, runId, { owner, ttlMs, at: Date.now() + offset });
      if (answer.kind === "held" && leaseOwnerIsGone(answer.owner))
        answer = await acquire(store, runId, { owner, ttlMs, at: Date.now() + offset, goneOwner: answer.owner });
      if (answer.kind === "acquired") return new RunLease(store, runId, { token: answer.token, ttlMs, clockOffsetMs: offset });
      if (onBusy === "fail") throw new RunBusyError(runId, answer);
      options.signal?.throwIfAborted();
      // Free when its owner gives it up (checked often) or when it runs out.
      await sleepUntil(Math.min(Date.now() + 200, answer.expiresAt - offset + 1), options.signal);
    }
  }

  /**
   * The lease of a run just created, taken in the same store transaction as the run (a run host's
   * start): the token the store answered that write with, on the lease's default terms. The run's
   * opener (`openStoredRun`, handed it as `lease.held`) then knows the run is there, empty, and
   * its own, and reads nothing back (`openNewRun`). Only for a store without a clock of its own
   * (`CheckpointStore.now`): the lease is counted on this process's clock.
   */
  static ofNewRun(store: CheckpointStore, runId: string, taken: { token: number; entry: string }): RunLease {
    if (store.now !== undefined) throw new InvalidOptionsError("RunLease.ofNewRun is for a store that keeps no clock of its own");
    const lease = new RunLease(store, runId, { token: taken.token, ttlMs: RunLease.defaultTtlMs, clockOffsetMs: 0 });
    lease.known = { kind: "new", entry: taken.entry };
    return lease;
  }

  /**
   * Takes the run's lease and reads the run in one store transaction (`batch`): a wake pass's
   * way to open a run it found due. The run's opener (`openStoredRun`, handed it as
   * `lease.held`) goes on from that read: it does not create the run, take a lease or read it
   * again. Another process's run fails at once with `RunBusyError` (a gone owner of this host's
   * is taken over, as `take` does). Undefined where the store cannot (no `batch`, a clock of
   * its own, or an answer that comes later): the run then takes its lease as it opens.
   */
  static takeReading(store: CheckpointStore, runId: string): RunLease | undefined {
    if (store.batch === undefined || store.now !== undefined) return undefined;
    const owner = leaseOwnerName();
    const ttlMs = defaultTtlMs;
    let taken: { token: number; read: boolean; stored: StoredRun | undefined } | undefined;
    let busy: { owner: string; expiresAt: number } | undefined;
    try {
      store.batch(() => {
        let answer = store.acquireLease(runId, { owner, ttlMs, at: Date.now() });
        if (!isPromiseLike(answer) && answer.kind === "held" && leaseOwnerIsGone(answer.owner))
          answer = store.acquireLease(runId, { owner, ttlMs, at: Date.now(), goneOwner: answer.owner });
        // A later answer is this owner's to take again as the run opens (the same owner keeps its token).
        if (isPromiseLike(answer)) return void Promise.resolve(answer).catch(ignore);
        if (answer.kind === "held") return void (busy = answer);
        const stored = store.getRun(runId);
        if (isPromiseLike(stored)) Promise.resolve(stored).catch(ignore);
        taken = isPromiseLike(stored)
          ? { token: answer.token, read: false, stored: undefined }
          : { token: answer.token, read: true, stored };
      });
    } catch (error) {
      throw storeFailure(store, runId, error, {
        happened: "the run could not be opened",
        then: "nothing was started. Try again once the store is back",
      });
    }
    if (busy !== undefined) throw new RunBusyError(runId, busy);
    if (taken === undefined) return undefined;
    const lease = new RunLease(store, runId, { token: taken.token, ttlMs, clockOffsetMs: 0 });
    if (taken.read) lease.known = { kind: "read", stored: taken.stored };
    return lease;
  }

  /**
   * What was known of the run as this lease was taken, for the one opening it, once: created
   * empty for `entry` (`ofNewRun`; for another entry, nothing), or read under this lease
   * (`takeReading`). Undefined when nothing was known, or the run was opened already.
   */
  knownRun(entry: string): KnownRun | undefined {
    const known = this.known;
    this.known = undefined;
    return known?.kind === "new" && known.entry !== entry ? undefined : known;
  }

  /** Whether this process still holds the lease: not given up, not lost. */
  get held(): boolean {
    return !this.released && !this.lost.signal.aborted;
  }

  /** Aborts once the lease is lost; its reason is the `LeaseLostError`. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /** A write was refused because the run is no longer this lease's: stop. */
  markLost(error?: unknown): void {
    this.stopRenewing();
    if (!this.lost.signal.aborted) this.lost.abort(error instanceof LeaseLostError ? error : new LeaseLostError(this.runId, this.token));
  }

  /** Stops renewing and gives the lease up, so the next caller need not wait for it to run out. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopRenewing();
    if (this.lost.signal.aborted) return;
    try {
      await this.store.releaseLease(this.runId, this.token);
    } catch {
      // The store is away: the lease runs out on its own.
    }
  }

  /**
   * Renews the lease. A renewal the store has not answered while the lease went unrenewed for
   * two thirds of its life means the store is out of reach: the lease is given up here — the
   * run's calls aborted, its writes refused — a third of a lease before another process could
   * take the run over. (A process that was only busy has no renewal waiting: it renews.)
   */
  private tick(): void {
    if (this.renewing) {
      if (Date.now() - this.renewedAt >= this.ttlMs - Math.floor(this.ttlMs / 3)) this.markLost();
      return;
    }
    this.renewing = true;
    void this.renew().finally(() => (this.renewing = false));
  }

  private async renew(): Promise<void> {
    const at = Date.now();
    try {
      const renewed = await this.store.renewLease(this.runId, { token: this.token, ttlMs: this.ttlMs, at: at + this.clockOffsetMs });
      if (!renewed) return this.markLost();
      // The store counts the lease from when the renewal was asked.
      this.renewedAt = Math.max(this.renewedAt, at);
    } catch {
      // The store failed to answer: given up when that has gone on for two thirds of the lease.
      if (Date.now() - this.renewedAt >= this.ttlMs - Math.floor(this.ttlMs / 3)) this.markLost();
    }
  }

  private stopRenewing(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * How far the store's clock is from this process's (0 for a store without one): read once,
 * when the lease is taken; a clock that is fast or slow by a steady amount is corrected.
 */
async function clockOffset(store: CheckpointStore, runId: string): Promise<number> {
  if (store.now === undefined) return 0;
  try {
    const asked = Date.now();
    const now = await store.now();
    // The store read its clock about halfway through the round trip.
    return Math.round(now - (asked + Date.now()) / 2);
  } catch (error) {
    throw storeFailure(store, runId, error, {
      happened: "the run could not be opened",
      then: "nothing was started. Try again once the store is back",
    });
  }
}

/** A lease asked of the store; a store that does not answer is a `StoreError` naming it and the run. */
async function acquire(store: CheckpointStore, runId: string, lease: Parameters<CheckpointStore["acquireLease"]>[1]) {
  try {
    return await store.acquireLease(runId, lease);
  } catch (error) {
    throw storeFailure(store, runId, error, {
      happened: "the run could not be opened",
      then: "nothing was started. Try again once the store is back",
    });
  }
}

/** A lease handed on: it must be one of this run's, and not lost. */
function heldFor(held: RunLease, runId: string): RunLease {
  if (!(held instanceof RunLease)) throw new InvalidOptionsError("lease.held must be a RunLease (RunLease.take)");
  if (held.runId !== runId) throw new InvalidOptionsError(`lease.held is run "${held.runId}"'s lease, not run "${runId}"'s`);
  if (held.signal.aborted) throw held.signal.reason as Error;
  if (!held.held) throw new InvalidOptionsError(`lease.held for run "${runId}" was given up already`);
  return held;
}

function readLeaseOptions(lease: LeaseOptions | undefined): { ttlMs: number; onBusy: "fail" | "wait" } {
  if (lease !== undefined && (typeof lease !== "object" || lease === null)) {
    throw new InvalidOptionsError('lease must be an object: { ttlMs?, onBusy?: "fail" | "wait" }');
  }
  const ttlMs = lease?.ttlMs ?? defaultTtlMs;
  if (!Number.isInteger(ttlMs) || ttlMs < 10) throw new InvalidOptionsError(`lease.ttlMs must be an integer >= 10, got ${String(ttlMs)}`);
  const onBusy = lease?.onBusy ?? "fail";
  if (onBusy !== "fail" && onBusy !== "wait") throw new InvalidOptionsError('lease.onBusy must be "fail" or "wait"');
  return { ttlMs, onBusy };
}

function sleepUntil(at: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, at - Date.now()));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
