import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";

/**
 * Where a run came from, written into its row by what created it (a schedule's fire, a fork,
 * the run server for an API client) and never read out of its id: an id is a name, not a
 * credential. A grant of scope "schedule" holds for the runs whose origin names that schedule.
 * A run kept inside another (a strategy's plan run) has that run as its row's `keptIn`.
 */
export interface RunOrigin {
  /** The schedule that started it, and the fire time it started for (ms since 1970). */
  schedule?: { name: string; fireAt: number } | undefined;
  /** The run, and the step, it was forked from (`forkRun`). */
  forkedFrom?: { runId: string; step: string } | undefined;
  /** The API client that started it through the run server (a token's name; `mcp` over stdio). */
  client?: string | undefined;
}

/** The origin a caller gives `createRun`, checked: its known fields, each of its type; undefined for none. */
export function checkedOrigin(given: unknown): RunOrigin | undefined {
  if (given === undefined) return undefined;
  const origin = originFrom(given) ?? {};
  const known = ["schedule", "forkedFrom", "client"];
  if (
    !isRecord(given) ||
    Object.entries(given).some(([key, value]) => !known.includes(key) || (value !== undefined && !Object.hasOwn(origin, key)))
  )
    throw new InvalidOptionsError(
      `a run's origin is { schedule?: { name, fireAt }, forkedFrom?: { runId, step }, client? }, not ${JSON.stringify(given)}`,
    );
  return Object.keys(origin).length === 0 ? undefined : origin;
}

/**
 * The origin a store kept, read as input to check: only the fields of the right types are kept,
 * so a damaged value gives a run less provenance, never more.
 */
export function originFrom(value: unknown): RunOrigin | undefined {
  if (!isRecord(value)) return undefined;
  const origin: RunOrigin = {};
  const { schedule, forkedFrom, client } = value;
  if (isRecord(schedule) && typeof schedule.name === "string" && Number.isFinite(schedule.fireAt))
    origin.schedule = { name: schedule.name, fireAt: schedule.fireAt as number };
  if (isRecord(forkedFrom) && typeof forkedFrom.runId === "string" && typeof forkedFrom.step === "string")
    origin.forkedFrom = { runId: forkedFrom.runId, step: forkedFrom.step };
  if (typeof client === "string") origin.client = client;
  return Object.keys(origin).length === 0 ? undefined : origin;
}
