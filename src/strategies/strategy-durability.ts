import type { CheckpointStore, JournalEntry } from "../journal/checkpoint-store.js";
import type { Checkpoints } from "../journal/checkpoint-writer.js";
import type { MaybePromise } from "../core/maybe-async.js";
import type { TextReplay } from "./text-call.js";
import type { ModelCallLog } from "../journal/model-calls.js";
import type { HumanDecisions } from "../core/tools/guarded-call.js";

/**
 * A strategy run kept in a store. Its own journal holds every text answer (plan, replan,
 * solve, critic, join), kept before the run acts on it; each plan it runs is a plan run of
 * its own in the same store, `<runId>/plan:<version>`, checkpointed step by step. Called
 * again with the same id, the run goes the same way: kept answers are read instead of
 * asking a model, a finished plan run hands back its result, an unfinished one continues.
 */
export interface StrategyDurability {
  store: CheckpointStore;
  /** What the run's own journal held when it was opened (none for a new run): code mode reads its calls back from it. */
  journal: readonly JournalEntry[];
  replay: TextReplay;
  /** Where the run keeps what its model calls were sent and answered (unless it keeps none). */
  calls: ModelCallLog | undefined;
  /** The id of the plan run for plan `version`. */
  planRunId(version: number): string;
  /**
   * The approvals and answers given with this call, for the plan run `runId` if it is the
   * one that stopped to wait for them (it is in the store, unfinished); once.
   */
  decisionsFor(runId: string): Promise<HumanDecisionsGiven | undefined>;
  checkpoints: Checkpoints;
  /** The decision kept on plan review `id` (`plan:<v>`), if the run made it before. */
  keptReview(id: string): unknown;
  /** Keeps a decision on a plan review before the run acts on it. */
  keepReview(id: string, decision: unknown): MaybePromise<void>;
}

export type HumanDecisionsGiven = {
  approvals: NonNullable<HumanDecisions["approvals"]>;
  answers: NonNullable<HumanDecisions["answers"]>;
  decidedBy?: string | undefined;
};

/** The decisions a run was given, in the shape its inner runs take them (none given: empty). */
export function givenDecisions(options: HumanDecisions): HumanDecisionsGiven {
  return {
    approvals: options.approvals ?? {},
    answers: options.answers ?? {},
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
  };
}
