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
 * Writes a run's checkpoints. A write to a synchronous store is done when the call returns;
 * a write to an asynchronous one is waited for (`settled`) before the step that made it
 * counts as ended, so nothing depends on a step whose end is not committed.
 */
export class Checkpoints {
  private writing: Promise<void> | undefined;

  constructor(private readonly durability: Durability) {}

  get runId(): string {
    return this.durability.runId;
  }

  write(entries: JournalEntry[]): void {
    const { store, runId } = this.durability;
    const written =
      this.writing === undefined
        ? store.append(runId, entries, Date.now())
        : this.writing.then(() => store.append(runId, entries, Date.now()));
    if (isPromiseLike(written)) this.writing = Promise.resolve(written);
  }

  /** Resolves once every write so far is committed; at once when all were synchronous. */
  settled(): MaybePromise<void> {
    return this.writing;
  }

  finish(result: PlanRunResult): MaybePromise<void> {
    const { store, runId } = this.durability;
    const done = () => store.finishRun(runId, result, Date.now());
    return this.writing === undefined ? done() : this.writing.then(done);
  }
}
