import { randomUUID } from "node:crypto";
import { storeFailure, type CheckpointStore, type JournalEntry, type RunOrigin, type StoredRun } from "./checkpoint-store.js";
import { Budget } from "../core/budget.js";
import { InvalidOptionsError, StoreError } from "../core/errors.js";
import { RunLease, type LeaseOptions } from "./run-lease.js";
import { keptOutKeys, protectStore, readThrough, secretsIn, type StoreProtection } from "./protected-store.js";
import { defaultSecretKeys, type SecretKeys } from "../trust/secrets.js";
import { boundRunId, checkSecret } from "../trust/state-signature.js";
import type { UsageTotals } from "../core/usage.js";
import { journalTime, offsetClock, systemClock, type Clock } from "../core/clock.js";
import type { Checkpoints, Durability } from "./checkpoint-writer.js";
import type { MaybePromise } from "../core/maybe-async.js";

// The writer is its own file; the type is named here too, where the runs are opened.
export type { Checkpoints, Durability };

/** `DurableOptions.maxRecoveries` when none is given. */
export const defaultMaxRecoveries = 3;

/** The store and id options every durable entry point takes. */
export interface DurableOptions {
  /**
   * Checkpoints the run here (see docs/durable-runs.md): calling the entry point again with
   * the same `runId` continues an unfinished run, and hands back the stored result of a
   * finished one without running anything.
   */
  store?: CheckpointStore | undefined;
  /** The run's id in the store; generated when absent, and always on the result. */
  runId?: string | undefined;
  /**
   * A stored run has one owner at a time: opening it takes its lease, renewed while the run
   * works, and a second caller of the same `runId` fails at once with `RunBusyError` (or
   * waits, with `onBusy: "wait"`). See `LeaseOptions`.
   */
  lease?: LeaseOptions | undefined;
  /**
   * Values for the secret arguments of a run kept without a `stateSecret`: the store keeps
   * such values out (`{ "$keptOut": "apiKey" }`), so continuing the run needs them again, by
   * key (`{ apiKey: process.env.API_KEY }`). A plan given again gives its own. With a
   * `stateSecret` they are kept sealed instead, and nothing needs giving.
   */
  keptSecrets?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Whether the store keeps each model call's messages and answer (secret keys masked), for
   * `planloop ui` and evaluations: default true. A call costs what its new messages and its
   * answer take as JSON (docs/durable-runs.md has measured figures); false keeps none.
   */
  keepModelCalls?: boolean | undefined;
  /**
   * How many times a step that a crash cut short is started again, default 3: a step cut short
   * once more (a tool that crashes its process, a machine that keeps dying under it) is not
   * started again, and the run ends `failed` with a reason naming the step and the count.
   */
  maxRecoveries?: number | undefined;
  /**
   * Where a new run came from, kept in its row (`RunOrigin`): a schedule's launch passes
   * `fire.origin`, so grants of scope "schedule" hold for the run. Ignored for a run that exists.
   */
  origin?: RunOrigin | undefined;
}

/** What the store says of a run about to start: nothing yet, a result, or a journal to continue from. */
export type OpenedRun =
  | { kind: "new"; runId: string; durability: Durability | undefined }
  | { kind: "finished"; runId: string; result: unknown }
  | { kind: "continue"; runId: string; durability: Durability; journal: StoredRun["journal"] };

/**
 * Opens a run by id for `entry` (the entry point's name). Without a store, the id is just a
 * name (generated when absent). With one: a new id creates the run; a finished run's id
 * hands back its stored result; an unfinished run's id hands back its journal.
 */
export async function openStoredRun(options: DurableOptions, entry: string): Promise<OpenedRun> {
  // Options that are not an object are the entry point's to refuse, with its own message.
  if (typeof options !== "object" || options === null) return { kind: "new", runId: randomUUID(), durability: undefined };
  if (options.runId !== undefined && (typeof options.runId !== "string" || options.runId === "")) {
    throw new InvalidOptionsError("runId must be a non-empty string");
  }
  // A signed state resumes the run it belongs to, under its id (and no other).
  const runId = boundRunId(options) ?? options.runId ?? randomUUID();
  const { maxRecoveries } = options;
  if (maxRecoveries !== undefined && (!Number.isInteger(maxRecoveries) || maxRecoveries < 0)) {
    throw new InvalidOptionsError(`maxRecoveries must be an integer >= 0, got ${String(maxRecoveries)}`);
  }
  if (options.store === undefined) return { kind: "new", runId, durability: undefined };
  const store = protectStore(options.store, protectionOf(options));
  const keepModelCalls = options.keepModelCalls !== false;
  // A lease taken as its run was created (a run host's start) opens a run known to be there and empty: nothing to read back;
  // one taken with a read of its run (a wake pass) opens from that read.
  const handed = options.lease?.held;
  const known = handed instanceof RunLease && handed.runId === runId && handed.held ? handed.knownRun(entry) : undefined;
  if (known?.kind === "new") return { kind: "new", runId, durability: { store, runId, lease: handed!, keepModelCalls, maxRecoveries } };
  const created =
    known === undefined
      ? await asStoreError(store, runId, "could not be opened", () =>
          store.createRun({ runId, entry, at: Date.now(), origin: options.origin }),
        )
      : "exists";
  // The run is read only once it is this process's: what its last owner wrote is all there.
  const lease = await RunLease.take(store, runId, { lease: options.lease, signal: (options as { signal?: AbortSignal }).signal });
  const durability: Durability = { store, runId, lease, keepModelCalls, maxRecoveries };
  if (created === "created") return { kind: "new", runId, durability };
  try {
    const stored =
      known === undefined
        ? await asStoreError(store, runId, "could not be read", () => store.getRun(runId))
        : known.stored && readThrough(store, known.stored);
    if (stored === undefined) throw new InvalidOptionsError(`run "${runId}" vanished from the store while it was opened`);
    if (stored.entry !== entry) throw new InvalidOptionsError(`run "${runId}" was started by ${stored.entry}, not ${entry}`);
    if (stored.status === "finished" && stored.result === undefined) {
      throw new StoreError({
        store: store.location,
        runId,
        problem: "the run is marked finished but its result is missing: the store was changed outside planloop; restore it from a backup",
      });
    }
    if (stored.status === "finished") {
      await lease.release();
      return { kind: "finished", runId, result: stored.result };
    }
    const missing = keptOutKeys(stored.journal);
    if (missing.length > 0) {
      throw new InvalidOptionsError(
        `run "${runId}" was kept without a stateSecret, so its secret arguments (${missing.join(", ")}) were kept out of the store; ` +
          `to continue it, give them again (keptSecrets: { ${missing.map((key) => `${key}: …`).join(", ")} }, or the same plan), ` +
          "or set stateSecret on new runs to keep them sealed",
      );
    }
    return { kind: "continue", runId, durability, journal: stored.journal };
  } catch (error) {
    await lease.release();
    throw error;
  }
}

/** How the run's store keeps secrets and proves its entries: from the run's own options. */
export function protectionOf(options: DurableOptions): StoreProtection {
  const loose = options as { stateSecret?: unknown; secretKeys?: SecretKeys; plan?: unknown };
  checkSecret(loose.stateSecret);
  const secretKeys = loose.secretKeys ?? defaultSecretKeys;
  const given = secretsIn(loose.plan, secretKeys);
  for (const [key, value] of Object.entries(options.keptSecrets ?? {})) given.set(key, value);
  return { secret: loose.stateSecret as string | undefined, secretKeys, given };
}

/** A store call whose failure (the server away, the disk full) becomes a `StoreError` naming the store and the run. */
async function asStoreError<T>(store: CheckpointStore, runId: string, what: string, call: () => MaybePromise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeFailure(store, runId, error, { happened: `the run ${what}`, then: "nothing was started. Try again once the store is back" });
  }
}

/**
 * What sets a run up between opening it and its own try/finally (reading its options,
 * starting it): when that throws (bad options), the run's lease is given up at once rather
 * than held until this process exits, so the caller can try again.
 */
export async function settingUp<T>(durability: Durability | undefined, setUp: () => T | Promise<T>): Promise<T> {
  try {
    return await setUp();
  } catch (error) {
    await durability?.lease?.release();
    throw error;
  }
}

/** A run opened by id, its journal rebuilt into the entry point's own state and result types. */
export type Opened<Result, State> =
  | { kind: "new"; runId: string; durability: Durability | undefined }
  | { kind: "finished"; runId: string; result: Result }
  | { kind: "continue"; runId: string; durability: Durability; resume: State | undefined };

/** `openStoredRun` for one entry point: a continued run's journal goes through `rebuild`. */
export async function openDurableRun<Result, State>(
  options: DurableOptions,
  entry: { name: string; rebuild(journal: readonly JournalEntry[]): State | undefined },
): Promise<Opened<Result, State>> {
  const opened = await openStoredRun(options, entry.name);
  if (opened.kind === "finished") {
    chargeStoredUsage(options, opened.result);
    return { ...opened, result: opened.result as Result };
  }
  if (opened.kind === "new") return opened;
  return { kind: "continue", runId: opened.runId, durability: opened.durability, resume: entry.rebuild(opened.journal) };
}

/**
 * A finished run read from the store inside a larger run (a strategy's plan run, after a
 * restart) counts toward that run's budget as it did the first time, so totals come out
 * the same as without the restart.
 */
export function chargeStoredUsage(options: object, result: unknown): void {
  const budget = (options as { budget?: unknown }).budget;
  const usage = (result as { usage?: Partial<UsageTotals> } | null)?.usage;
  if (budget instanceof Budget && typeof usage === "object" && usage !== null) budget.charge(usage);
}

/**
 * The options of a run continued from its journal: the journal's state is its `resume` (kept
 * by the store, so not signed), and inside a larger run (a strategy's budget) what it had
 * spent counts there again. Any other run's options are returned as they are.
 */
export function continuedOptions<Options extends { resume?: unknown; stateSecret?: string | undefined; clock?: Clock | undefined }, State>(
  options: Options,
  opened: Opened<unknown, State>,
): Options {
  const timed = onStoreClock(options, opened);
  if (opened.kind !== "continue" || opened.resume === undefined) return timed;
  chargeStoredUsage(options, opened.resume);
  return { ...timed, resume: opened.resume, stateSecret: undefined };
}

/**
 * A durable run on a store with a clock of its own (Postgres) counts its time by it, unless
 * the caller gave a clock: a request for approval lapses at the same moment for every process.
 */
function onStoreClock<Options extends { clock?: Clock | undefined }>(options: Options, opened: Opened<unknown, unknown>): Options {
  const offset = opened.kind === "finished" ? 0 : (opened.durability?.lease?.clockOffsetMs ?? 0);
  return offset === 0 || options.clock !== undefined ? options : { ...options, clock: offsetClock(systemClock, offset) };
}

/** The human decisions a run was given, as journal entries: kept as they are given. */
export function decisionEntries(decisions: {
  approvals?: Record<string, unknown> | undefined;
  answers?: Record<string, string> | undefined;
  decidedBy?: string | undefined;
}): JournalEntry[] {
  const entries: JournalEntry[] = [];
  const at = journalTime();
  const by = decisions.decidedBy === undefined ? {} : { by: decisions.decidedBy };
  for (const [id, decision] of Object.entries(decisions.approvals ?? {})) entries.push({ kind: "human-decision", id, decision, at, ...by });
  for (const [id, answer] of Object.entries(decisions.answers ?? {}))
    entries.push({ kind: "human-decision", id, decision: { answer }, at, ...by });
  return entries;
}
