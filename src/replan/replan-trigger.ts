import type { StepRecord } from "../plan/step-record.js";

/**
 * What in an execution calls for a new plan (seed 001 §5): steps that failed after their
 * retries, and outputs that contradicted the plan or brought new information. Undefined
 * when the plan ran through. Pure.
 */
export function describeProblem(execution: {
  steps: Record<string, StepRecord>;
  replanRequests: ReadonlyArray<{ stepId: string | number; reason: string }>;
}): string | undefined {
  const failed = Object.entries(execution.steps)
    .filter(([, record]) => record.status === "failed")
    .map(([id, record]) => `step ${id} failed: ${record.error}`);
  const requests = execution.replanRequests.map((request) => `step ${request.stepId} reported: ${request.reason}`);
  const problems = [...failed, ...requests];
  return problems.length === 0 ? undefined : problems.join("; ");
}
