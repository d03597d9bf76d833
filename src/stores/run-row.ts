import type { StoredRun } from "../core/checkpoint-store.js";

/** A run's row as the SQL stores keep it (snake case, the result as JSON text). */
export type RunRow = {
  run_id: string;
  entry: string;
  status: "running" | "finished";
  result: string | null;
  created_at: number;
  updated_at: number;
};

/** The row as a run, without its journal and result. */
export function summaryOf(row: RunRow): Omit<StoredRun, "journal" | "result"> {
  return { runId: row.run_id, entry: row.entry, status: row.status, createdAt: row.created_at, updatedAt: row.updated_at };
}
