import type { StoredEvent, StoredRun } from "../journal/checkpoint-store.js";
import { checkedOrigin, originFrom } from "../journal/run-origin.js";
import { StoreError } from "../core/errors.js";

/** A run's row as the SQL stores keep it (snake case, the result as JSON text). */
export type RunRow = {
  run_id: string;
  entry: string;
  status: "running" | "finished";
  result: string | null;
  created_at: number;
  updated_at: number;
  /** Where the run came from (`RunOrigin`, JSON); null for none, and for rows from before origins were kept. */
  origin: string | null;
};

/** Text a SQL store kept as JSON, read back; a value damaged outside planloop is a `StoreError` saying where. */
export function readStoredJson(text: string, where: { store: string; runId: string; what: string }): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StoreError({
      store: where.store,
      runId: where.runId,
      problem: `${where.what} is not JSON (${text.slice(0, 60)}): it was changed outside planloop; restore the store from a backup, or start the run anew under another id`,
      cause: error,
    });
  }
}

/** The row as a run, without its journal and result; its origin read as input to check (`originFrom`). */
export function summaryOf(row: RunRow, store: string): Omit<StoredRun, "journal" | "result"> {
  const origin =
    row.origin === null ? undefined : originFrom(readStoredJson(row.origin, { store, runId: row.run_id, what: "the run's origin" }));
  return {
    runId: row.run_id,
    entry: row.entry,
    status: row.status,
    ...(origin === undefined ? {} : { origin }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A run's origin as a SQL store keeps it: JSON text, or null for none. */
export function originColumn(origin: unknown): string | null {
  const checked = checkedOrigin(origin);
  return checked === undefined ? null : JSON.stringify(checked);
}

/** An event's row as the SQL stores keep it (the data as JSON text; Postgres gives a BIGSERIAL as text). */
export type EventRow = {
  seq: number | string;
  id: string;
  name: string;
  data: string;
  run_id: string | null;
  at: number;
  expires_at: number;
};

export function storedEventOf(row: EventRow): StoredEvent {
  return {
    seq: Number(row.seq),
    id: row.id,
    name: row.name,
    data: JSON.parse(row.data) as unknown,
    ...(row.run_id === null ? {} : { runId: row.run_id }),
    at: row.at,
    expiresAt: row.expires_at,
  };
}
