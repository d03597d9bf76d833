import type { StepStatus } from "../core/events.js";

export type { StepStatus };

/** What happened to one step. Times are milliseconds since the run started. */
export interface StepRecord {
  status: StepStatus;
  output?: unknown;
  /** Why the step failed, was skipped, cancelled, or is waiting. */
  error?: string;
  attempts: number;
  startedAt?: number;
  endedAt?: number;
}
