import { randomUUID } from "node:crypto";
import type { CheckpointStore, JournalEntry } from "../core/checkpoint-store.js";
import { InvalidOptionsError } from "../core/errors.js";
import { isPromiseLike, type MaybePromise } from "../core/maybe-async.js";
import { copyTextKeyed, textKeyed } from "../core/records.js";
import { emptyUsage } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";
import type { StepRecord } from "../plan/step-record.js";
import type { PlanRunResult } from "./execution-result.js";
import { createPlanState, type PlanRunState, type WaitingStep } from "./resume-state.js";

/** Where a durable run writes, and under which id. */
export interface Durability {
  store: CheckpointStore;
  runId: string;
}

/** What the store says of a run about to start: nothing yet, a result, or a state to continue. */
export type Opened =
  | { kind: "new"; runId: string; durability: Durability | undefined }
  | { kind: "finished"; runId: string; result: PlanRunResult }
  | { kind: "continue"; runId: string; durability: Durability; resume: PlanRunState | undefined };

/**
 * Opens a run by id. Without a store, the id is just a name (generated when absent). With
 * one: a new id creates the run; the id of a finished run hands back its stored result (no
 * model or tool is called); the id of an unfinished run continues it from its journal.
 */
export async function openRun(options: { store?: CheckpointStore | undefined; runId?: string | undefined }, at: number): Promise<Opened> {
  if (options.runId !== undefined && (typeof options.runId !== "string" || options.runId === "")) {
    throw new InvalidOptionsError("runId must be a non-empty string");
  }
  const runId = options.runId ?? randomUUID();
  const { store } = options;
  if (store === undefined) return { kind: "new", runId, durability: undefined };
  if ((await store.createRun({ runId, entry: "executePlan", at })) === "created")
    return { kind: "new", runId, durability: { store, runId } };
  const stored = await store.getRun(runId);
  if (stored === undefined) throw new InvalidOptionsError(`run "${runId}" vanished from the store while it was opened`);
  if (stored.entry !== "executePlan") throw new InvalidOptionsError(`run "${runId}" was started by ${stored.entry}, not executePlan`);
  if (stored.status === "finished") return { kind: "finished", runId, result: stored.result as PlanRunResult };
  return { kind: "continue", runId, durability: { store, runId }, resume: stateFromJournal(stored.journal) };
}

/**
 * The state a run had reached by its journal: its last saved pause, then every step that
 * ended after it. A step that started and never ended (the process died while it ran) has
 * no record, so it runs again. Undefined when the run never wrote its plan. Pure.
 */
export function stateFromJournal(journal: readonly JournalEntry[]): PlanRunState | undefined {
  let plan: Plan | undefined;
  let paused: PlanRunState | undefined;
  let pausedAt = -1;
  journal.forEach((entry, index) => {
    if (entry.kind === "plan") plan = entry.plan as Plan;
    if (entry.kind === "paused") {
      paused = entry.state as PlanRunState;
      pausedAt = index;
    }
  });
  if (plan === undefined) return undefined;
  const steps = copyTextKeyed<StepRecord>(paused?.steps);
  const waiting = copyTextKeyed<WaitingStep>(paused?.waiting);
  for (const entry of journal.slice(pausedAt + 1)) {
    if (entry.kind !== "step-end") continue;
    steps[entry.stepKey] = entry.record as StepRecord;
    if (entry.waiting === undefined) delete waiting[entry.stepKey];
    else waiting[entry.stepKey] = entry.waiting as WaitingStep;
  }
  return createPlanState({
    plan,
    steps,
    waiting,
    usage: paused?.usage ?? emptyUsage(),
    elapsedMs: paused?.elapsedMs ?? 0,
    toolCallCounts: copyTextKeyed(paused?.toolCallCounts ?? textKeyed<number>()),
    ...(paused?.usedApprovals ? { usedApprovals: paused.usedApprovals } : {}),
  });
}

/**
 * Writes a run's checkpoints. Entries wait in a buffer until the next `commit`, which the run
 * makes before a step's tool runs and before its result is returned: a step's end and the
 * start of the step after it go in one transaction, and no tool of a dependent runs before
 * the end it depends on is committed. (A process that dies with entries in the buffer loses
 * only starts and ends of calls whose effects may be repeated under the same key.) A write
 * to an asynchronous store is waited for; one to a synchronous store is done on return.
 */
export class Checkpoints {
  private buffer: JournalEntry[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly durability: Durability) {}

  get runId(): string {
    return this.durability.runId;
  }

  write(entries: JournalEntry[]): void {
    for (const entry of entries) this.buffer.push(entry);
  }

  /** Commits what is buffered; at once when the store is synchronous, else a promise. */
  commit(): MaybePromise<void> {
    if (this.buffer.length > 0) {
      const entries = this.buffer;
      this.buffer = [];
      const { store, runId } = this.durability;
      const written =
        this.writing === undefined
          ? store.append(runId, entries, Date.now())
          : this.writing.then(() => store.append(runId, entries, Date.now()));
      this.writing = isPromiseLike(written) ? Promise.resolve(written) : undefined;
    }
    return this.writing;
  }

  finish(result: PlanRunResult): MaybePromise<void> {
    const { store, runId } = this.durability;
    const committed = this.commit();
    const done = () => store.finishRun(runId, result, Date.now());
    return committed === undefined ? done() : Promise.resolve(committed).then(done);
  }
}
