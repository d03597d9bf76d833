import { LeaseLostError } from "../core/errors.js";
import { dueSince, memoryEvents } from "./memory-events.js";
import { checkedOrigin } from "./run-origin.js";
import { topRunId, type RunChangeListener } from "./run-feed.js";
import {
  appendedOutcome,
  finishedOutcome,
  keptInCandidates,
  listedBy,
  storeMisuse,
  type CheckpointStore,
  type JournalEntry,
  type RunOutcome,
  type RunSummary,
  type StoredRun,
} from "./checkpoint-store.js";

/**
 * A store in this process's memory: for tests and short runs (nothing survives the
 * process). Entries are copied through JSON, as a durable store would keep them.
 */
export function memoryStore(): CheckpointStore {
  const runs = new Map<string, StoredRun & Pick<RunSummary, "keptIn" | "outcome">>();
  const values = new Map<string, string>();
  const leases = new Map<string, { owner: string; token: number; expiresAt: number }>();
  const kept = memoryEvents();
  const watchers = new Set<RunChangeListener>();
  const changed = (runId: string) => [...watchers].forEach((watcher) => watcher([topRunId(runId)]));
  const running = (runId: string, token?: number) => {
    const run = runs.get(runId);
    if (run === undefined) throw storeMisuse(`there is no run "${runId}" in the store`);
    // A writer with a token on a finished run lost it: another owner took it over and finished it.
    if (run.status === "finished" && token !== undefined) throw new LeaseLostError(runId, token);
    if (run.status === "finished") throw storeMisuse(`run "${runId}" has finished; it takes no more entries`);
    if (token !== undefined && leases.get(runId)?.token !== token) throw new LeaseLostError(runId, token);
    return run;
  };
  const copyOf = (runId: string, from: number): StoredRun | undefined => {
    const run = runs.get(runId);
    if (run === undefined) return undefined;
    const { keptIn: _, outcome: __, journal, ...row } = run;
    return JSON.parse(JSON.stringify({ ...row, journal: journal.slice(from) })) as StoredRun;
  };
  return {
    location: "the memory store",
    createRun({ runId, entry, at, origin }) {
      const recorded = checkedOrigin(origin);
      if (runs.has(runId)) return "exists";
      const keptIn = keptInCandidates(runId).findLast((prefix) => runs.has(prefix));
      const row = { runId, entry, status: "running" as const, createdAt: at, updatedAt: at, journal: [] };
      runs.set(runId, { ...row, ...(recorded ? { origin: recorded } : {}), ...(keptIn ? { keptIn } : {}) });
      return "created";
    },
    getRun: (runId) => copyOf(runId, 0),
    getRunFrom: (runId, from) => copyOf(runId, from),
    append(runId, entries, at, token) {
      const run = running(runId, token);
      const copies = JSON.parse(JSON.stringify(entries)) as JournalEntry[];
      // Entry by entry: a commit of a few hundred thousand step ends would overflow the stack as arguments.
      for (const copy of copies) run.journal.push(copy);
      run.updatedAt = at;
      const outcome = appendedOutcome(copies);
      if (outcome === null) delete run.outcome;
      else if (outcome !== undefined) run.outcome = outcome;
      changed(runId);
    },
    finishRun(runId, result, at, token) {
      const run = running(runId, token);
      run.status = "finished";
      run.result = JSON.parse(JSON.stringify(result ?? null)) as unknown;
      run.outcome = finishedOutcome(run.result);
      run.updatedAt = at;
      changed(runId);
    },
    listRuns: (options = {}) =>
      [...runs.values()]
        .map(({ journal, result: _, ...row }): RunSummary => JSON.parse(JSON.stringify({ ...row, entries: journal.length })))
        .filter((row) => listedBy(row, options))
        .sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1))
        .slice(0, options.limit ?? Infinity),
    runOutcomes: (options = {}) =>
      [...runs.values()].flatMap(({ runId, entry, keptIn, outcome }) =>
        outcome === undefined ||
        (options.topLevel && keptIn !== undefined) ||
        (options.taskType !== undefined && outcome.taskType !== options.taskType)
          ? []
          : [{ runId, entry, outcome: JSON.parse(JSON.stringify(outcome)) as RunOutcome }],
      ),
    getValue: (key) => {
      const text = values.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    },
    setValue: (key, value) => void values.set(key, JSON.stringify(value ?? null)),
    updateValue: (key, update) => {
      const text = values.get(key);
      const next = update(text === undefined ? undefined : (JSON.parse(text) as unknown));
      values.set(key, JSON.stringify(next ?? null));
      return JSON.parse(JSON.stringify(next ?? null)) as unknown;
    },
    acquireLease(runId, { owner, ttlMs, at, goneOwner }) {
      const held = leases.get(runId);
      if (held !== undefined && held.owner !== owner && held.owner !== goneOwner && held.expiresAt > at)
        return { kind: "held", owner: held.owner, expiresAt: held.expiresAt };
      const token = held !== undefined && held.owner === owner && held.expiresAt > at ? held.token : (held?.token ?? 0) + 1;
      leases.set(runId, { owner, token, expiresAt: at + ttlMs });
      return { kind: "acquired", token };
    },
    renewLease(runId, { token, ttlMs, at }) {
      const held = leases.get(runId);
      if (held?.token !== token) return false;
      held.expiresAt = at + ttlMs;
      return true;
    },
    releaseLease(runId, token) {
      const held = leases.get(runId);
      if (held?.token === token) held.expiresAt = 0;
    },
    events: kept.log,
    dueRuns: ({ at, limit }) =>
      [...runs.values()]
        .flatMap(({ runId, status, outcome }) => {
          const due = status === "running" && outcome?.status === "waiting" ? dueSince(runId, outcome.wake, at, kept.all) : undefined;
          return due === undefined ? [] : [{ runId, due }];
        })
        .sort((a, b) => a.due - b.due)
        .slice(0, limit)
        .map(({ runId }) => runId),
    watchRuns: (listener) => (watchers.add(listener), () => void watchers.delete(listener)),
    close: () => runs.clear(),
  };
}
