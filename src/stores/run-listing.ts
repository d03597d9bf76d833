import type { ListRunsOptions, RunOutcome, RunSummary } from "../journal/checkpoint-store.js";
import { readStoredJson, summaryOf, type RunRow } from "./run-row.js";

/** What the SQL stores differ in when they list runs. */
export interface ListDialect {
  /** The n-th parameter (1-based). */
  param(n: number): string;
  /** A field of the outcome JSON, as text. */
  outcomeField(field: "status" | "taskType"): string;
  /** The name of the schedule the run's origin names, as text. */
  originSchedule: string;
  /** The runs whose id starts with `prefix` (`add` binds a value and gives its parameter). */
  startsWith(prefix: string, add: (value: unknown) => string): string;
  /** What LIMIT takes for "all". */
  noLimit: number | null;
  /** The entries count's type. */
  count: string;
}

export const sqliteDialect: ListDialect = {
  param: () => "?",
  outcomeField: (field) => `json_extract(r.outcome, '$.${field}')`,
  originSchedule: "json_extract(r.origin, '$.schedule.name')",
  // A range on the primary key ("/" + 1 is "0"); SQLite compares text bytewise.
  startsWith: (prefix, add) => `(r.run_id >= ${add(prefix)} AND r.run_id < ${add(`${prefix.slice(0, -1)}0`)})`,
  noLimit: -1,
  count: "COUNT(*)",
};

export const postgresDialect: ListDialect = {
  param: (n) => `$${n}`,
  outcomeField: (field) => `(r.outcome::json ->> '${field}')`,
  originSchedule: "(r.origin::json -> 'schedule' ->> 'name')",
  // Not a range: under a database's collation "/" and "0" need not sort as bytes do.
  startsWith: (prefix, add) => `starts_with(r.run_id, ${add(prefix)})`,
  noLimit: null,
  count: "COUNT(*)::int",
};

export interface ListQuery {
  sql: string;
  values: unknown[];
}

/** A run's row as a listing reads it: no result, no journal. */
export type ListedRow = Omit<RunRow, "result"> & { entries: number; kept_in: string | null; outcome: string | null };

/** The query `listRuns(options)` makes: newest first, filtered in SQL, a page at a time. */
export function listQuery(options: ListRunsOptions, dialect: ListDialect): ListQuery {
  const values: unknown[] = [];
  const add = (value: unknown) => (values.push(value), dialect.param(values.length));
  const where: string[] = [];
  if (options.topLevel) where.push("r.kept_in IS NULL");
  if (options.runId !== undefined) where.push(`r.run_id = ${add(options.runId)}`);
  if (options.within !== undefined) where.push(dialect.startsWith(`${options.within}/`, add));
  if (options.status === "running") where.push("r.status = 'running' AND r.outcome IS NULL");
  else if (options.status !== undefined) where.push(`${dialect.outcomeField("status")} = ${add(options.status)}`);
  if (options.taskType !== undefined) where.push(`${dialect.outcomeField("taskType")} = ${add(options.taskType)}`);
  if (options.schedule !== undefined) where.push(`r.origin IS NOT NULL AND ${dialect.originSchedule} = ${add(options.schedule)}`);
  if (options.before !== undefined) {
    where.push(
      `(r.created_at < ${add(options.before.createdAt)} OR (r.created_at = ${add(options.before.createdAt)} AND r.run_id < ${add(options.before.runId)}))`,
    );
  }
  const sql = `SELECT r.run_id, r.entry, r.status, r.created_at, r.updated_at, r.kept_in, r.outcome, r.origin,
      (SELECT ${dialect.count} FROM planloop_journal j WHERE j.run_id = r.run_id) AS entries
    FROM planloop_runs r ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
    ORDER BY r.created_at DESC, r.run_id DESC LIMIT ${add(options.limit ?? dialect.noLimit)}`;
  return { sql, values };
}

/** The query `runOutcomes(options)` makes: two columns of the rows that have an outcome, in no order. */
export function outcomesQuery(options: Pick<ListRunsOptions, "topLevel" | "taskType">, dialect: ListDialect): ListQuery {
  const values: unknown[] = [];
  const where = ["r.outcome IS NOT NULL"];
  if (options.topLevel) where.push("r.kept_in IS NULL");
  if (options.taskType !== undefined) {
    values.push(options.taskType);
    where.push(`${dialect.outcomeField("taskType")} = ${dialect.param(values.length)}`);
  }
  return { sql: `SELECT r.run_id, r.entry, r.outcome FROM planloop_runs r WHERE ${where.join(" AND ")}`, values };
}

/** A row of `outcomesQuery`, as `runOutcomes` gives it. */
export function outcomeRow(
  row: { run_id: string; entry: string; outcome: string },
  store: string,
): { runId: string; entry: string; outcome: RunOutcome } {
  return { runId: row.run_id, entry: row.entry, outcome: readOutcome(row.outcome, row.run_id, store) };
}

function readOutcome(text: string, runId: string, store: string): RunOutcome {
  const read = readStoredJson(text, { store, runId, what: "the run's outcome" }) as Record<string, unknown>;
  const outcome: RunOutcome = { status: String(read.status) };
  if (typeof read.taskType === "string") outcome.taskType = read.taskType;
  if (read.usage !== undefined && read.usage !== null) outcome.usage = read.usage;
  return outcome;
}

/** A listed row as `listRuns` gives it. */
export function listedSummary(row: ListedRow, store: string): RunSummary {
  const summary: RunSummary = { ...summaryOf({ ...row, result: null }, store), entries: row.entries };
  if (row.kept_in !== null) summary.keptIn = row.kept_in;
  if (row.outcome !== null) summary.outcome = readOutcome(row.outcome, row.run_id, store);
  return summary;
}
