import { PlanloopError } from "../core/errors.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { RunLease } from "../journal/run-lease.js";
import type { Tool } from "../core/tools/define-tool.js";
import { decideRun, type RunDecision, type RunDecisions } from "./decide-run.js";
import { waitingFor } from "./waiting-for.js";

export interface TakeDecisionsOptions {
  store: CheckpointStore;
  runId: string;
  /** One decision, or a wave: taken whole or not at all. */
  decisions: RunDecision | readonly RunDecision[];
  /** Who decides: kept with each decision. */
  by: string;
  /** The run's tools, to check an edited plan against. */
  tools?: readonly Tool[] | undefined;
  /** How long the lease lasts unless renewed (see `LeaseOptions.ttlMs`). */
  leaseTtlMs?: number | undefined;
}

/** A run taken for people's decisions: its lease, held by this process, and the decisions as checked under it. */
export interface TakenRun {
  lease: RunLease;
  decided: RunDecisions;
}

/** A run that is not in the store. */
export class NoSuchRunError extends PlanloopError {
  constructor(readonly runId: string) {
    super(`there is no run "${runId}"`);
    this.name = "NoSuchRunError";
  }
}

/**
 * Checks people's decisions against what the run waits for now (`waitingFor`, then
 * `decideRun`: all or nothing), holding nothing: a face's first answer to a bad wave. A run
 * that is not in the store is a `NoSuchRunError`; a refusal, a `DecisionsRefusedError`. What is
 * answered as taken must then be taken under the run's lease (`takeDecisions`).
 */
export async function checkDecisions(options: Omit<TakeDecisionsOptions, "leaseTtlMs">): Promise<RunDecisions> {
  const run = await waitingFor(options.store, options.runId);
  if (run === undefined) throw new NoSuchRunError(options.runId);
  return decideRun({ run, decisions: options.decisions, by: options.by, tools: options.tools });
}

/**
 * Takes a waiting run for people's decisions before anyone is told they were taken: the run's
 * lease first (a run another process holds is a `RunBusyError` naming it and when its lease runs
 * out), then what the run waits for, read under that lease, and the decisions checked against it
 * (`decideRun`: all or nothing). No one else can continue the run between this check and the
 * continuation, which goes on under the lease handed to it (`lease: { held: taken.lease }`);
 * a caller that does not continue gives the lease up (`taken.lease.release()`).
 *
 * ```ts
 * const taken = await takeDecisions({ store, runId, decisions: { pendingId: "step:1", action: "approve" }, by: "ana" });
 * const { approvals, answers, decidedBy } = taken.decided;
 * await executePlan({ plan, tools, store, runId, approvals, answers, decidedBy, lease: { held: taken.lease } });
 * ```
 */
export async function takeDecisions(options: TakeDecisionsOptions): Promise<TakenRun> {
  const { store, runId } = options;
  if ((await store.getRun(runId)) === undefined) throw new NoSuchRunError(runId);
  const lease = await RunLease.take(store, runId, {
    lease: { onBusy: "fail", ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }) },
  });
  try {
    const run = await waitingFor(store, runId);
    if (run === undefined) throw new NoSuchRunError(runId);
    const decided = decideRun({ run, decisions: options.decisions, by: options.by, tools: options.tools });
    return { lease, decided };
  } catch (error) {
    await lease.release();
    throw error;
  }
}
