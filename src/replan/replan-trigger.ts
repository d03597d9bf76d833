import type { StepRecord } from "../plan/step-record.js";

/**
 * What in an execution calls for a new plan (seed 001 §5): steps that failed after their
 * retries, and outputs that contradicted the plan or brought new information. Undefined
 * when the plan ran through. Pure.
 */
export function describeProblem(execution: {
  steps: Record<string, StepRecord>;
  replanRequests: ReadonlyArray<{ stepId: string | number; reason: string }>;
  /** Optional steps (the run's `missing`, or all of the plan's): the run does without them, no new plan is asked for. */
  optional?: ReadonlyArray<string | number> | undefined;
}): string | undefined {
  const missing = new Set((execution.optional ?? []).map(String));
  const failed = Object.entries(execution.steps)
    .filter(([id, record]) => record.status === "failed" && !missing.has(id))
    .map(([id, record]) => `step ${id} failed: ${record.error}`);
  const requests = execution.replanRequests.map((request) => `step ${request.stepId} reported: ${request.reason}`);
  const problems = [...failed, ...requests];
  return problems.length === 0 ? undefined : problems.join("; ");
}
