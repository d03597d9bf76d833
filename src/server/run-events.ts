import type { StoredRun } from "../journal/checkpoint-store.js";
import { lastPause, pendingOf } from "../strategies/stored-runs.js";
import { journalEvents } from "../trace/stored-trace.js";
import type { StreamEvent } from "../client/api-types.js";
import type { PlanloopEventBody } from "../core/events.js";
import { mergeTimelines } from "./timeline-merge.js";
import type { RunReading } from "./run-reading.js";

/**
 * Where a stream of a run's events stands: per run (the run itself, "", and each run kept
 * inside it, by the rest of its id), how many of its journal's events were sent. It is each
 * event's SSE `id`, so a client that reconnects with `Last-Event-ID` gets exactly the events it
 * has not seen, from the store: after a dropped connection, a reload, or a restart of the server.
 */
export type StreamCursor = Map<string, number>;

/** An event as a journal draws it, with when it happened. */
type Drawn = PlanloopEventBody & { time: number };

/**
 * The cursor a `Last-Event-ID` names, in the stream of run `runId`; an empty one (from the start)
 * for none. A malformed id, and one from another run's stream, are refused. (An id from before
 * cursors named their run is read as it was; `unsentEvents` with `check` refuses one past the end.)
 */
export function readCursor(lastEventId: string | undefined, runId: string): StreamCursor {
  const cursor: StreamCursor = new Map();
  if (lastEventId === undefined || lastEventId === "") return cursor;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(lastEventId, "base64url").toString("utf8"));
  } catch {
    throw new CursorError(lastEventId);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new CursorError(lastEventId);
  const named = parsed as { run?: unknown; sent?: unknown };
  if (named.run !== undefined && named.run !== runId) throw new CursorError(lastEventId, `it is from the stream of another run`);
  const positions = named.run === undefined ? parsed : named.sent;
  if (typeof positions !== "object" || positions === null || Array.isArray(positions)) throw new CursorError(lastEventId);
  for (const [run, sent] of Object.entries(positions)) {
    if (!Number.isSafeInteger(sent) || (sent as number) < 0) throw new CursorError(lastEventId);
    cursor.set(run, sent as number);
  }
  return cursor;
}

export class CursorError extends Error {
  constructor(id: string, why = "it is not a position this server gave") {
    super(`Last-Event-ID ${JSON.stringify(id.slice(0, 80))} is refused: ${why}; leave it out to read the run's stream from its start`);
  }
}

export function cursorId(cursor: StreamCursor, runId: string): string {
  return Buffer.from(JSON.stringify({ run: runId, sent: Object.fromEntries(cursor) })).toString("base64url");
}

/** What a look at the store found: the events not sent yet, and (`withSent`) those sent before, for a format that keeps state. */
export interface UnsentEvents {
  events: StreamEvent[];
  /** The events before the cursor, oldest first per run: what the client has had. */
  sent: StreamEvent[];
  finished: boolean;
  status?: string;
}

/**
 * The events of the run and the runs kept inside it that `cursor` has not had yet, as `reading`
 * finds them now; moves the cursor past them. A run waiting for people says what on its last
 * pause (`pending`); its end carries its answer (`output`).
 */
export async function unsentEvents(
  reading: RunReading,
  runId: string,
  cursor: StreamCursor,
  options: { withSent?: boolean; check?: string } = {},
): Promise<UnsentEvents | undefined> {
  const found = await reading.read();
  if (found === undefined) return undefined;
  const { run, children } = found;
  const named: string[] = [];
  const unsent: Drawn[][] = [];
  const had: Drawn[][] = [];
  for (const each of [run, ...children]) {
    const name = each.runId.slice(runId.length).replace(/^\//, "");
    named.push(name);
    const drawn = journalEvents(each, each === run);
    if (each === run) describeEnding(drawn, run, children);
    const from = cursor.get(name) ?? 0;
    // A journal never shrinks: a position past its end was never given for this run.
    if (options.check !== undefined && from > drawn.length) throw new CursorError(options.check, "it is past the end of this run's stream");
    had.push(drawn.slice(0, from));
    unsent.push(drawn.slice(from));
  }
  const runIds = [run, ...children].map((each) => each.runId);
  // In the order things happened across the runs, each event's id the cursor just past it.
  const asSent = (timeline: Array<{ list: number; event: Drawn }>, positions: StreamCursor) =>
    timeline.map(({ list, event }) => {
      positions.set(named[list]!, (positions.get(named[list]!) ?? 0) + 1);
      return { ...event, run: runIds[list]!, id: cursorId(positions, runId) } as StreamEvent;
    });
  const sent = options.withSent ? asSent(mergeTimelines(had), new Map()) : [];
  const events = asSent(mergeTimelines(unsent), cursor);
  if (options.check !== undefined && [...cursor.keys()].some((name) => !named.includes(name)))
    throw new CursorError(options.check, "it names runs this run does not hold");
  const status = (run.result as { status?: unknown } | undefined)?.status;
  return { events, sent, finished: run.status === "finished", ...(typeof status === "string" ? { status } : {}) };
}

/** Each pause of the run names what it waited for (its saved state's pending calls); its end carries its answer. */
function describeEnding(drawn: Array<Record<string, unknown>>, run: StoredRun, children: readonly StoredRun[]): void {
  const pauses = run.journal.filter((entry) => entry.kind === "paused");
  const paused = drawn.filter((event) => event.type === "run-paused" && event.status !== "process stopped");
  paused.forEach((event, index) => {
    const entry = pauses[index];
    event.pending = entry?.kind === "paused" ? pendingOf(entry.state) : [];
  });
  const last = drawn.at(-1);
  const lastPaused = paused.at(-1);
  // A strategy's pause names nothing itself: what it waits for is in the run kept inside it.
  if (
    lastPaused !== undefined &&
    (lastPaused.pending as unknown[] | undefined)?.length === 0 &&
    (last === lastPaused || run.status === "finished")
  ) {
    const state = lastPause(run, children, { finished: true });
    if (state !== undefined) lastPaused.pending = pendingOf(state);
  }
  if (last?.type === "run-end") {
    const output = (run.result as { output?: unknown } | undefined)?.output;
    if (output !== undefined) last.output = output;
  }
}
