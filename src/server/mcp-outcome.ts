import { z } from "zod";
import type { RunView } from "../client/api-types.js";
import { BodyError } from "./api-requests.js";

/** What every run tool answers with, as `structuredContent` (and a task's result). */
export const runOutcomeShape = {
  runId: z.string(),
  status: z.string().describe("completed, waiting, failed, cancelled, …"),
  output: z.unknown().optional().describe("The run's answer, once it completed"),
  reason: z.string().optional(),
  pending: z
    .array(z.looseObject({ id: z.string(), kind: z.string() }))
    .optional()
    .describe("What the run waits for: decide it with decide"),
};

/** A run's standing as a tool result: a line of text, and the same as structured content. */
export function runOutcome(view: RunView | undefined, runId: string) {
  if (view === undefined) throw new BodyError(`there is no run "${runId}"`, "runId");
  const result = view.result as { output?: unknown; reason?: string } | undefined;
  const structured = {
    runId,
    status: view.status,
    ...(result?.output === undefined ? {} : { output: result.output }),
    ...(result?.reason === undefined ? {} : { reason: result.reason }),
    ...(view.pending.length === 0 ? {} : { pending: view.pending }),
  };
  const waits = view.pending.map((item) => `${item.id} (${item.kind})`).join(", ");
  const text =
    view.status === "completed"
      ? `run ${runId} completed: ${typeof result?.output === "string" ? result.output : JSON.stringify(result?.output)}`
      : view.status === "waiting" && waits !== ""
        ? `run ${runId} waits for ${waits}: decide with the decide tool`
        : `run ${runId}: ${view.status}${result?.reason ? `: ${result.reason}` : ""}`;
  return { content: [{ type: "text" as const, text }], structuredContent: structured };
}

/** Run statuses that stopped without the answer asked for: a failed, incomplete or over-budget run. */
export function isFailedRun(status: string): boolean {
  return !["completed", "cancelled", "waiting", "running"].includes(status);
}

/**
 * What a call that ran (or continued) a run answers with, as a plain call and as a task's
 * result alike: the run's outcome, an error (`isError`) when the run failed. Reading a failed
 * run (`get_run`) is no error, and uses `runOutcome`.
 */
export function runAnswer(view: RunView | undefined, runId: string) {
  const outcome = runOutcome(view, runId);
  return view !== undefined && isFailedRun(view.status) ? { ...outcome, isError: true as const } : outcome;
}
