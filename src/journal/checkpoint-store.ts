import { errorMessage, InvalidOptionsError, PlanloopError, StoreError } from "../core/errors.js";
import type { MaybePromise } from "../core/maybe-async.js";
import type { KeptModelCall } from "./model-call-record.js";

import type { EventLog, RunWake, StoredEvent } from "./event-log.js";
import type { RunOrigin } from "./run-origin.js";
import type { RunChangeListener } from "./run-feed.js";

export type { EventLog, RunWake, StoredEvent, RunOrigin, RunChangeListener };

/**
 * What a durable run writes, in the order it happens: each entry is committed before the run
 * goes on (a step's end before any step that depends on it starts). Replaying a run's entries
 * rebuilds what it had done when it stopped or its process died. `text`: a strategy's model
 * answer; `launch`: the command line that started the run (written by the planloop command);
 * `model-call`: what a model was sent and answered.
 */
export type JournalEntry =
  | { kind: "plan"; version: number; plan: unknown }
  /** `at`: wall-clock time (ms since 1970) it started, for traces of stored runs. */
  | { kind: "step-start"; stepKey: string; attempt: number; idempotencyKey: string; at?: number }
  | {
      kind: "step-end";
      stepKey: string;
      record: unknown;
      waiting?: unknown;
      totals?: { usage: unknown; elapsedMs: number };
      /** When it ended, wall-clock (ms since 1970), for traces of stored runs. */
      at?: number;
    }
  /**
   * A stopped or paused run's state. A ReAct loop's is kept as a difference from its previous
   * `paused` entry: with `messagesFrom`, the state's `messages` hold only those from this index
   * on; with `callsChanged`, its no-progress counters only the ones that changed.
   */
  | {
      kind: "paused";
      state: unknown;
      status?: string;
      at?: number;
      messagesFrom?: number;
      callsChanged?: true;
      /** A run that waits for a time or an event: what wakes it (see `RunWake`). */
      wake?: RunWake;
    }
  | { kind: "call-start"; turn: number; position: number }
  /** A ReAct loop continued a round whose calls a crash had cut short, and runs them again. */
  | { kind: "round-resumed"; turn: number }
  | { kind: "call-end"; turn: number; position: number; outcome: unknown }
  | { kind: "decision"; turn: number; decision: unknown }
  /** `at`: when it was given (ms since 1970); `by`: who gave it, when the caller said (`decidedBy`). */
  | { kind: "human-decision"; id: string; decision: unknown; at?: number; by?: string }
  | { kind: "text"; call: string; text: string; usage?: unknown; partial?: boolean }
  | { kind: "launch"; argv: string[]; cwd: string }
  /** What a model was sent and answered (see `KeptModelCall`); kept unless the run says `keepModelCalls: false`. */
  | { kind: "model-call"; call: KeptModelCall }
  /**
   * A model call waits for its provider's limit (`providerLimit`) until `until` (ms since 1970,
   * the writer's clock), from `at`: for the ui's mark, read while the run goes on (a value with
   * an expiry: past `until`, nothing waits). Replays pass over it.
   */
  | { kind: "limit-wait"; limit: string; until: number; at: number; step: number }
  /** A run made by `forkRun` from a step of another: the run and the step it reruns from. */
  | { kind: "forked"; from: string; step: string }
  /**
   * Code mode: a program (`attempt`) starts, its `Date` standing at `now`; `source`, the
   * program's text (for traces and the ui; a journal written before it was kept has none).
   */
  | { kind: "code-start"; attempt: number; now: number; source?: string; at?: number }
  /**
   * Code mode: a call of a program, by `key` (tool and arguments, the n-th such call): its
   * outcome once it ended; without one, a side-effecting call about to run. `at`: wall-clock
   * time (ms since 1970) of that moment, and `startedAt` of the call's start (with an outcome),
   * for timelines of stored runs.
   */
  | {
      kind: "code-call";
      key: string;
      attempt: number;
      name: string;
      arguments: unknown;
      outcome?: unknown;
      at?: number;
      startedAt?: number;
    };

export type RunStatus = "running" | "finished";

/** A run as a store holds it: its row, and every entry written for it in order. */
export interface StoredRun {
  runId: string;
  /** The entry point that started it: "executePlan", "planAndExecute", "runAgent", ... */
  entry: string;
  status: RunStatus;
  /** The run's result, once it finished. */
  result?: unknown;
  /** Where it came from, as what created it said (`RunOrigin`); none for a run created without (or before there were origins). */
  origin?: RunOrigin;
  createdAt: number;
  updatedAt: number;
  journal: JournalEntry[];
}

/**
 * Who may write to a running run: one owner at a time. A lease lasts until `expiresAt` unless
 * its owner renews it; every new owner gets a larger `token`, and a store refuses writes made
 * under a token that is no longer the run's (a stale owner's), so a process that lost its
 * lease cannot write over the one that took the run after it.
 */
export type LeaseAnswer = { kind: "acquired"; token: number } | { kind: "held"; owner: string; expiresAt: number };

/**
 * How a run stands, kept in its row so runs can be listed and counted without reading their
 * journals: the status it finished or paused with (none while it runs), its task type, and
 * what it had spent (`UsageTotals`).
 */
export interface RunOutcome {
  status: string;
  taskType?: string;
  usage?: unknown;
  /** A waiting run's wake: the time, or the events, that continue it (`dueRuns`). */
  wake?: RunWake;
  /** A completed run's answer had this many claims its steps do not support (docs/grounded-reports.md): the runs list marks it. */
  unsupported?: number;
}

/** A line of `listRuns`. */
export type RunSummary = Omit<StoredRun, "journal" | "result"> & {
  entries: number;
  /** The run this one is kept inside (a strategy's plan run, an agent step's loop): the nearest `<id>/…` prefix that is a run. */
  keptIn?: string;
  /** The status, task type and spend the run finished or paused with; absent while it runs. */
  outcome?: RunOutcome;
};

/** Which runs `listRuns` gives: newest first, filtered, a page at a time. */
export interface ListRunsOptions {
  limit?: number | undefined;
  /** Only runs older than this one (the last line of the page before): the next page. */
  before?: { createdAt: number; runId: string } | undefined;
  /** Only runs not kept inside another one. */
  topLevel?: boolean | undefined;
  /** Only the run of this id (its row without its journal: a cheap look at whether it moved). */
  runId?: string | undefined;
  /** Only the runs kept inside this one, at any depth (ids `<runId>/…`). */
  within?: string | undefined;
  /** Only runs of this status: `running`, or the status they paused or finished with (`completed`, `waiting`, …). */
  status?: string | undefined;
  /** Only runs of this task type. */
  taskType?: string | undefined;
  /** Only runs this schedule started (by their recorded `origin`, not their ids). */
  schedule?: string | undefined;
}

/**
 * Where durable runs keep their checkpoints: `memoryStore()` (memory-store.ts), `sqliteStore` from
 * `planloop/sqlite`. Every implementation passes one conformance suite. Writes return at
 * once when the backend is synchronous (memory, SQLite), so a run of quick steps does not
 * wait a turn of the event loop per checkpoint.
 */
export interface CheckpointStore {
  /** Where the store keeps runs (a file, a server without its password), for messages. */
  readonly location?: string;
  /**
   * Creates the run, with where it came from (`origin`, kept in its row as given), or says that
   * one with this id exists already (and leaves it as it is, origin included).
   */
  createRun(run: { runId: string; entry: string; at: number; origin?: RunOrigin | undefined }): MaybePromise<"created" | "exists">;
  getRun(runId: string): MaybePromise<StoredRun | undefined>;
  /**
   * The run as `getRun` gives it, but its `journal` only the entries after the first `from`: a
   * reader that holds those already (a stream following the run) reads what was appended since,
   * not the whole journal again. Optional; without it such a reader reads `getRun`.
   */
  getRunFrom?(runId: string, from: number): MaybePromise<StoredRun | undefined>;
  /**
   * Appends entries to a running run, all or none. With `token`: only while that token is the
   * run's lease (else `LeaseLostError`, nothing written).
   */
  append(runId: string, entries: readonly JournalEntry[], at: number, token?: number): MaybePromise<void>;
  /** Marks the run finished with its result; a finished run takes no more entries. `token` as for `append`. */
  finishRun(runId: string, result: unknown, at: number, token?: number): MaybePromise<void>;
  /**
   * Makes the writes of `work` — calls of this store, each answered at once — one commit: all of
   * them are kept, or none (a write that throws undoes those before it, and `batch` throws).
   * Optional, and only a store whose calls are synchronous has it (SQLite): a run's writes that
   * come one right after the other (its last entries and its end; a run and how it was started)
   * cost one commit instead of several. Without it each call is its own commit.
   */
  batch?<T>(work: () => T): T;
  /**
   * Takes the run's lease for `owner` until `at + ttlMs`: when nobody holds it, when its
   * holder let it run out, or when `owner` holds it already. Each new owner's token is larger
   * than every token before it. Else who holds it, and until when.
   *
   * `goneOwner`: the holder the caller found to be a process that is gone (same host, pid not
   * alive); the lease is taken from exactly that holder too, even before it runs out. A store
   * that ignores it is still correct: the caller then waits for the lease to run out.
   */
  acquireLease(runId: string, lease: { owner: string; ttlMs: number; at: number; goneOwner?: string }): MaybePromise<LeaseAnswer>;
  /** Extends the lease `token` names to `at + ttlMs`; false when it is no longer the run's. */
  renewLease(runId: string, lease: { token: number; ttlMs: number; at: number }): MaybePromise<boolean>;
  /** Gives the lease up, so the next caller need not wait for it to run out; a stale token changes nothing. */
  releaseLease(runId: string, token: number): MaybePromise<void>;
  /**
   * The store's own time (ms since 1970), for a store many machines share (Postgres: the
   * server's clock). Leases and approval deadlines count by it, so a process whose clock is
   * fast or slow neither takes a live run over nor releases a lapsed request. A store on one
   * host (memory, SQLite) leaves it out: its processes share the host's clock.
   */
  now?(): MaybePromise<number>;
  /** The runs, newest first (by `createdAt`, then id): a page of them, filtered by the options. */
  listRuns(options?: ListRunsOptions): MaybePromise<RunSummary[]>;
  /**
   * How every run that stopped stands (`RunOutcome`), in no order, read from the rows alone:
   * for counting many runs (`planloop runs stats`). Runs still running have none.
   */
  runOutcomes(
    options?: Pick<ListRunsOptions, "topLevel" | "taskType">,
  ): MaybePromise<Array<{ runId: string; entry: string; outcome: RunOutcome }>>;
  /** A value kept beside the runs (what runs learn for the next ones, e.g. step latencies); undefined if none. */
  getValue(key: string): MaybePromise<unknown>;
  /** Keeps a value under `key`, replacing the one there. */
  setValue(key: string, value: unknown): MaybePromise<void>;
  /**
   * Replaces the value under `key` by `update(current)` in one step no other writer comes
   * between (two processes adding to one list at once both get in); the new value. `update` is
   * synchronous and may be called again. A store without it: see `updateValue`.
   */
  updateValue?(key: string, update: (current: unknown) => unknown): MaybePromise<unknown>;
  /** Events for waiting runs; a store without them cannot keep runs that wait for events. */
  readonly events?: EventLog;
  /**
   * The runs waiting on a time that has come by `at`, or on an event kept since they began to
   * wait: at most `limit`, the ones due longest first. A store without it cannot wake runs.
   */
  dueRuns?(query: { at: number; limit: number }): MaybePromise<string[]>;
  /**
   * The store's one change feed, shared by all who listen: which runs any process wrote to (by
   * top-level id), soon after each commit, or `"any"` when it may have missed some (a dropped
   * connection). Postgres: LISTEN/NOTIFY; SQLite: one poller. Returns how to stop listening.
   */
  watchRuns?(listener: RunChangeListener): () => void;
  close(): MaybePromise<void>;
}

/** The ids a run could be kept inside: each prefix of its id that ends before a "/". */
export function keptInCandidates(runId: string): string[] {
  const prefixes: string[] = [];
  for (let at = runId.indexOf("/"); at > 0; at = runId.indexOf("/", at + 1)) prefixes.push(runId.slice(0, at));
  return prefixes;
}

/** The outcome a finished run's result gives its row. */
export function finishedOutcome(result: unknown): RunOutcome {
  return outcomeFrom(result, "finished");
}

/**
 * The outcome an append gives a run's row: when its last entry is the pause a run stopped
 * with (one that names its status), that status; otherwise null (the run is running; a loop
 * keeps its state unnamed before its calls run). Undefined for an empty append (no change).
 */
export function appendedOutcome(entries: readonly JournalEntry[]): RunOutcome | null | undefined {
  const last = entries.at(-1);
  if (last === undefined) return undefined;
  if (last.kind !== "paused" || last.status === undefined) return null;
  return { ...outcomeFrom(last.state, last.status), status: last.status, ...(last.wake ? { wake: last.wake } : {}) };
}

function outcomeFrom(value: unknown, status: string): RunOutcome {
  const given = (typeof value === "object" && value !== null ? value : {}) as {
    status?: unknown;
    taskType?: unknown;
    usage?: unknown;
    provenance?: { counts?: { unsupported?: unknown } };
  };
  const unsupported = given.status === "completed" ? given.provenance?.counts?.unsupported : undefined;
  return {
    status: typeof given.status === "string" ? given.status : status,
    ...(typeof given.taskType === "string" ? { taskType: given.taskType } : {}),
    ...(given.usage === undefined ? {} : { usage: given.usage }),
    ...(typeof unsupported === "number" && Number.isInteger(unsupported) && unsupported > 0 ? { unsupported } : {}),
  };
}

/** Whether a run's row passes the filters of `listRuns` (for stores that filter in memory). */
export function listedBy(row: RunSummary, options: ListRunsOptions): boolean {
  const { before, within, status, taskType, runId } = options;
  if (runId !== undefined && row.runId !== runId) return false;
  if (options.topLevel && row.keptIn !== undefined) return false;
  if (within !== undefined && !row.runId.startsWith(`${within}/`)) return false;
  if (before !== undefined && !(row.createdAt < before.createdAt || (row.createdAt === before.createdAt && row.runId < before.runId)))
    return false;
  if (status !== undefined && (row.outcome?.status ?? "running") !== status) return false;
  if (options.schedule !== undefined && row.origin?.schedule?.name !== options.schedule) return false;
  return taskType === undefined || row.outcome?.taskType === taskType;
}

/**
 * What a store call threw, as planloop reports it: its own errors as they are; a driver's (the
 * server away, the disk full) as a `StoreError` naming the store and the run, with what
 * happened and `then`, what to do about it.
 */
export function storeFailure(store: CheckpointStore, runId: string, error: unknown, what: { happened: string; then: string }): Error {
  if (PlanloopError.isInstance(error)) return error;
  const problem = `${what.happened} (${errorMessage(error)}); ${what.then}`;
  return new StoreError({ store: store.location, runId, problem, cause: error });
}

/** The store was asked for something the run's state does not allow. */
export function storeMisuse(message: string): InvalidOptionsError {
  return new InvalidOptionsError(message);
}

/**
 * `store.updateValue(key, update)` where the store has it; otherwise a read and a write, which
 * two writers at the same moment can interleave (one add lost): a store shared by processes
 * should have it.
 */
export async function updateValue(store: CheckpointStore, key: string, update: (current: unknown) => unknown): Promise<unknown> {
  if (store.updateValue !== undefined) return store.updateValue(key, update);
  const next = update(await store.getValue(key));
  await store.setValue(key, next);
  return next;
}
