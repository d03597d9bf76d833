// The JSON API's shapes that the server (src/ui/) and the page (src/ui/app/) both name: one file,
// importing nothing, so the page (DOM, no Node) and the server (Node) can both read it.

/** A line of the runs list, as the JSON API gives it (`GET /api/runs`). */
export interface RunRow {
  runId: string;
  /** The entry point: executePlan, planAndExecute, runAgent, react, rewoo, llmCompiler. */
  entry: string;
  /** The task's first line, where the run shows it (its first model call, or the command that started it); a plan run's size ("a plan of 4 steps"). */
  task: string;
  /** As the API words it: running, waiting, completed, failed, cancelled, … */
  status: string;
  /** A completed run whose answer has this many claims its steps do not support (docs/grounded-reports.md). */
  unsupportedClaims?: number;
  taskType?: string;
  /** Steps ended of those planned, over the run and the runs it keeps inside it ("3/5"). */
  steps: string;
  modelCalls?: number;
  tokens?: number;
  costUsd?: number;
  createdAt: number;
  updatedAt: number;
  /** From start to the last write. */
  durationMs: number;
  entries: number;
  /**
   * A running run whose model call waits for its provider's limit (a rate, or the cooldown
   * after a 429): which limit, and until when (ms since 1970). None once that time has passed.
   */
  limitWait?: { limit: string; until: number };
  /** Why `planloop serve` gave up continuing the run (its command kept failing to start, …), while the run has not moved since. */
  leftAlone?: string;
}

/** A page of the runs list: the waiting runs first (all of them), then the newest others. */
export interface RunPage {
  waiting: RunRow[];
  runs: RunRow[];
  /** Where the next page starts (`before`), when there may be one. */
  next?: { createdAt: number; runId: string };
}

/** A person's decision on something a run waits for, as the page sends it (`POST /api/runs/:id/decisions`). */
export type Decision =
  | { pendingId: string; action: "approve" }
  | { pendingId: string; action: "deny"; reason?: string }
  | { pendingId: string; action: "answer"; text: string }
  /** A plan under review, approved as edited here. */
  | { pendingId: string; action: "edit"; plan: unknown };
