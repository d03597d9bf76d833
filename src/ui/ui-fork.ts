import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { PlanloopError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { forkRun, type ForkedRun } from "../executor/fork-run.js";
import { HttpError } from "./ui-http.js";

/** Reruns from a step (`POST /api/runs/:id/fork`, body `{ step, args? }` or `{ step, plan }`): a new run, made with `forkRun`. */
export async function forkFrom(store: CheckpointStore, runId: string, body: unknown): Promise<Omit<ForkedRun, "plan">> {
  if (!isRecord(body) || (typeof body.step !== "string" && typeof body.step !== "number")) {
    throw new HttpError(400, "a rerun is { step, args? }: the step to run again, and its new arguments if any");
  }
  try {
    const { plan: _, ...forked } = await forkRun(store, {
      from: runId,
      step: body.step,
      ...(body.args === undefined ? {} : { args: body.args }),
    });
    return forked;
  } catch (error) {
    if (error instanceof PlanloopError) throw new HttpError(400, error.message);
    throw error;
  }
}

/** The command that continues a run made here, for a ui that cannot run it itself. */
export function resumeCommand(runId: string, store: string | undefined): string {
  return ["planloop runs resume", runId, ...(store ? ["--store", store] : []), "--tools <your tools module>"].join(" ");
}
