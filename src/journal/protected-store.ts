import type { CheckpointStore, JournalEntry, StoredRun } from "./checkpoint-store.js";
import { InvalidOptionsError, StoreError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { andThen, isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { sameSecretText } from "../trust/keyed-hash.js";
import { replaceSecrets, type SecretKeys } from "../trust/secrets.js";
import { chainSignature, keptOutField, openStandIns, seal, standIn, storeKeys, unseal, type StoreKeys } from "../trust/store-sealing.js";

/** How a run's store keeps what it must not hold in clear, and proves what it holds. */
export interface StoreProtection {
  /** The run's `stateSecret`: seals secret values and model texts, and signs every entry and the result. */
  secret: string | undefined;
  /** Which argument keys hold secrets (`false`: none). */
  secretKeys: SecretKeys;
  /** Values given again for secrets kept out of the store (no secret to seal them with), by key. */
  given: ReadonlyMap<string, unknown>;
}

/** The field a stored entry's signature is kept in, and the stored result's. */
const entrySignature = "signature";
const resultSignature = "journalSignature";

const protectedStores = new WeakSet<CheckpointStore>();
/** How each protected store reads a run: its `getRun` on a run read from the store beneath. */
const readers = new WeakMap<CheckpointStore, (run: StoredRun) => StoredRun>();

/**
 * A run read from the store beneath `store` (a lease taken with its read, `RunLease.takeReading`)
 * as `store.getRun` would give it: checked, unsealed and chained by the protected store, or as
 * it is from a store with nothing to protect.
 */
export function readThrough(store: CheckpointStore, run: StoredRun): StoredRun {
  return readers.get(store)?.(run) ?? run;
}

/**
 * The store as a run writes to it: values under secret keys are sealed with the run's secret
 * (AES-256-GCM) or, without one, kept out of the store (`{ "$keptOut": key }`); with a secret,
 * model texts are sealed too, and every entry and the result are signed in one chain per run,
 * so an entry or a result changed, forged, moved or removed from the middle is refused on
 * reading, naming the run and the entry. A store protected already (a run inside a run) is
 * used as it is.
 */
export function protectStore(store: CheckpointStore, protection: StoreProtection): CheckpointStore {
  if (protectedStores.has(store) || (protection.secret === undefined && protection.secretKeys === false)) return store;
  const keys = protection.secret === undefined ? undefined : storeKeys(protection.secret);
  const hide = (value: unknown) =>
    replaceSecrets(value, protection.secretKeys, (secret, key) => (keys ? seal(secret, keys.seal) : { [keptOutField]: key }));
  // The signature of each run's last entry, for the next to chain to.
  const tails = new Map<string, string>();
  const refused = (runId: string, problem: string) => new StoreError({ store: store.location, runId, problem });

  // Sealed values opened, kept-out ones given again where the caller has them (else left as stand-ins).
  const openIn = (value: unknown, where: string, runId: string | undefined) =>
    openStandIns(value, ({ field, text }) => {
      if (field === keptOutField) return protection.given.get(text);
      if (keys === undefined) return undefined;
      try {
        return unseal(text, keys.seal);
      } catch {
        throw new StoreError({
          store: store.location,
          runId,
          problem: `a sealed value in ${where} cannot be opened: it was changed, or sealed with another secret`,
        });
      }
    });

  const read = (run: StoredRun): StoredRun => {
    if (keys !== undefined) verify(run, keys, refused);
    else if (run.journal.some((entry) => entrySignature in entry)) {
      throw new InvalidOptionsError(`run "${run.runId}" was kept with a stateSecret: continue it with the same stateSecret`);
    }
    const open = (value: unknown, where: string) => openIn(value, where, run.runId);
    const journal = run.journal.map((entry, index) => {
      const { [entrySignature]: _, ...plain } = entry as JournalEntry & { [entrySignature]?: string };
      return open(plain, `journal entry ${index + 1}`) as JournalEntry;
    });
    if (run.status === "running") tails.set(run.runId, tailOf(run.journal));
    if (!isRecord(run.result)) return { ...run, journal };
    const { [resultSignature]: _, ...result } = run.result;
    return { ...run, journal, result: open(result, "the result") };
  };
  // Without a secret nothing is chained: no tail is read.
  const readTail = (runId: string): MaybePromise<string> =>
    keys === undefined
      ? ""
      : (tails.get(runId) ??
        andThen(store.getRun(runId), (run) => {
          if (run !== undefined) read(run);
          return tails.get(runId) ?? "";
        }));
  // A write that failed leaves the chain's tail unknown: it is read again before the next.
  const written = (runId: string, write: () => MaybePromise<void>): MaybePromise<void> => {
    const forget = (error: unknown): never => {
      tails.delete(runId);
      throw error;
    };
    try {
      const done = write();
      return isPromiseLike(done) ? Promise.resolve(done).catch(forget) : done;
    } catch (error) {
      return forget(error);
    }
  };
  // An entry as stored: itself when it holds nothing to hide (most entries: starts and ends of steps).
  const hiding = <Entry extends JournalEntry, Field extends keyof Entry>(entry: Entry, field: Field): JournalEntry => {
    const hidden = hide(entry[field]);
    return hidden === entry[field] ? entry : { ...entry, [field]: hidden };
  };
  const stored = (entry: JournalEntry): JournalEntry => {
    switch (entry.kind) {
      case "plan":
        return hiding(entry, "plan");
      case "paused":
        return hiding(entry, "state");
      case "decision":
      case "human-decision":
        return hiding(entry, "decision");
      case "step-end":
        return entry.waiting === undefined ? entry : hiding(entry, "waiting");
      case "code-call":
        return hiding(entry, "arguments");
      // A program is the model's text: sealed as its text is.
      case "code-start":
        return keys === undefined || entry.source === undefined
          ? entry
          : ({ ...entry, source: seal(entry.source, keys.seal) } as unknown as JournalEntry);
      case "text":
        return keys === undefined ? entry : ({ ...entry, text: seal(entry.text, keys.seal) } as unknown as JournalEntry);
      // Masked already (secret keys as in events): nothing is kept out that a continuation would need back.
      case "model-call":
        return keys === undefined ? entry : ({ ...entry, call: seal(entry.call, keys.seal) } as unknown as JournalEntry);
      default:
        return entry;
    }
  };

  // Built as one literal of fixed members, the optional ones added after: a literal that begins with a spread is
  // made member by member on V8's slow path (about 20 µs a run, a run being opened once per start).
  const guarded: { -readonly [Key in keyof CheckpointStore]: CheckpointStore[Key] } = {
    createRun: (run) =>
      andThen(store.createRun(run), (answer) => {
        if (answer === "created") tails.set(run.runId, "");
        return answer;
      }),
    getRun: (runId) => andThen(store.getRun(runId), (run) => (run === undefined ? undefined : read(run))),
    append: (runId, entries, at, token) =>
      andThen(readTail(runId), (tail) => {
        if (keys === undefined) {
          // Nothing is signed: the entries go as they are unless one holds a secret (no copy per step).
          const hidden = entries.some((entry) => stored(entry) !== entry) ? entries.map(stored) : entries;
          return written(runId, () => store.append(runId, hidden, at, token));
        }
        let previous = tail;
        const signed = entries.map((entry) => {
          const hidden = stored(entry);
          previous = chainSignature(keys.sign, runId, previous, hidden);
          return { ...hidden, [entrySignature]: previous } as unknown as JournalEntry;
        });
        tails.set(runId, previous);
        return written(runId, () => store.append(runId, signed, at, token));
      }),
    finishRun: (runId, result, at, token) =>
      andThen(readTail(runId), (tail) => {
        const hidden = hide(result);
        const kept =
          keys !== undefined && isRecord(hidden)
            ? { ...hidden, [resultSignature]: chainSignature(keys.sign, runId, tail, hidden) }
            : hidden;
        return written(runId, () => store.finishRun(runId, kept, at, token));
      }),
    acquireLease: (runId, lease) => store.acquireLease(runId, lease),
    renewLease: (runId, lease) => store.renewLease(runId, lease),
    releaseLease: (runId, token) => store.releaseLease(runId, token),
    listRuns: (options) => store.listRuns(options),
    runOutcomes: (options) => store.runOutcomes(options),
    // Values beside the runs (a cached plan) keep secrets as the journal does.
    getValue: (key) => andThen(store.getValue(key), (value) => openIn(value, `the value kept as "${key}"`, undefined)),
    setValue: (key, value) => store.setValue(key, hide(value)),
    close: () => store.close(),
  };
  if (store.location !== undefined) guarded.location = store.location;
  if (store.now) guarded.now = () => store.now!();
  // The caller gets its own value back, not the one kept with its secrets hidden.
  if (store.updateValue)
    guarded.updateValue = (key: string, update: (current: unknown) => unknown) => {
      let given: unknown;
      return andThen(
        store.updateValue!(key, (current) => hide((given = update(openIn(current, `the value kept as "${key}"`, undefined))))),
        () => given,
      );
    };
  // Signatures chained inside a batch that is undone were not kept: each run's tail is read again.
  if (store.batch)
    guarded.batch = <T>(work: () => T): T => {
      try {
        return store.batch!(work);
      } catch (error) {
        tails.clear();
        throw error;
      }
    };
  if (store.events) guarded.events = store.events;
  if (store.dueRuns) guarded.dueRuns = (query: { at: number; limit: number }) => store.dueRuns!(query);
  protectedStores.add(guarded);
  readers.set(guarded, read);
  return guarded;
}

/** The keys of secrets a run's journal holds kept out, with no value given again for them. */
export function keptOutKeys(journal: readonly JournalEntry[]): string[] {
  const found = new Set<string>();
  openStandIns(journal, ({ field, text }) => {
    if (field === keptOutField) found.add(text);
    return undefined;
  });
  return [...found];
}

/** The values under secret keys in `value` that each key has only one of (what a caller gave again). */
export function secretsIn(value: unknown, keys: SecretKeys): Map<string, unknown> {
  const seen = new Map<string, Set<string>>();
  const values = new Map<string, unknown>();
  replaceSecrets(value, keys, (secret, key) => {
    if (standIn(secret) !== undefined) return secret;
    const text = JSON.stringify(secret);
    seen.set(key, (seen.get(key) ?? new Set()).add(text));
    values.set(key, secret);
    return secret;
  });
  for (const [key, distinct] of seen) if (distinct.size > 1) values.delete(key);
  return values;
}

/** Checks a run's chain of signatures (leading unsigned `launch` lines, written by the command, aside). */
function verify(run: StoredRun, keys: StoreKeys, refused: (runId: string, problem: string) => StoreError): void {
  let previous = "";
  let leading = true;
  run.journal.forEach((entry, index) => {
    const { [entrySignature]: given, ...plain } = entry as JournalEntry & { [entrySignature]?: unknown };
    const where = `journal entry ${index + 1} (${String(entry.kind)})`;
    if (given === undefined && leading && entry.kind === "launch") return;
    leading = false;
    if (given === undefined)
      throw refused(run.runId, `${where} is not signed: it was added outside planloop, or written without the stateSecret`);
    const expected = chainSignature(keys.sign, run.runId, previous, plain);
    if (!sameSecretText(given, expected))
      throw refused(
        run.runId,
        `${where} does not match its signature: it was changed, moved or copied outside planloop, or signed with another secret`,
      );
    previous = expected;
  });
  if (run.status !== "finished") return;
  const result = isRecord(run.result) ? run.result : {};
  const { [resultSignature]: given, ...plain } = result;
  if (!sameSecretText(given, chainSignature(keys.sign, run.runId, previous, plain)))
    throw refused(run.runId, "the stored result does not match the journal's signatures: it was changed or forged outside planloop");
}

function tailOf(journal: readonly JournalEntry[]): string {
  for (let index = journal.length - 1; index >= 0; index--) {
    const signature = (journal[index] as { [entrySignature]?: unknown })[entrySignature];
    if (typeof signature === "string") return signature;
  }
  return "";
}
