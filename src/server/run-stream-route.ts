import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { errorMessage } from "../core/errors.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { ApiFailure } from "./api-failure.js";
import { BoundedStream } from "./bounded-stream.js";
import { CursorError, readCursor, unsentEvents, type StreamCursor } from "./run-events.js";
import { RunDrawing } from "./run-drawing.js";
import { RunReading } from "./run-reading.js";
import type { RunChanges } from "./run-changes.js";
import { streamFormat, streamFormats, type StreamFormatName } from "./stream-format.js";

export interface RunStreamFeed {
  store: CheckpointStore;
  changes: RunChanges;
  /** How often a stream looks at its run when the store has no change feed (ms; 250). */
  pollMs?: number | undefined;
  /** How far (bytes) the reader may fall behind before the stream is cut off. */
  bufferBytes: number;
  onCut?: ((cut: { runId: string; capBytes: number }) => void) | undefined;
}

/**
 * `GET /api/runs/:id/stream`: the run's events in the format asked for, from the start or after
 * the client's `Last-Event-ID` (a cursor of another run's stream, or past this one's end, is a
 * 400 naming it), woken by the store's change feed, and cut off with a resumable cursor when the
 * reader falls `bufferBytes` behind.
 */
export async function streamRun(context: Context, runId: string, feed: RunStreamFeed): Promise<Response> {
  const { store, changes, bufferBytes } = feed;
  const name = context.req.query("format") ?? "planloop";
  if (!(streamFormats as readonly string[]).includes(name))
    throw new ApiFailure(400, `format must be one of ${streamFormats.join(", ")}; not ${JSON.stringify(name)}`, { field: "format" });
  const lastEventId = context.req.header("last-event-id") ?? context.req.query("lastEventId");
  let cursor: StreamCursor;
  // The stream's copy of the run and its events: read and drawn whole once, then only what each change appended.
  const reading = new RunReading(store, runId);
  const drawing = new RunDrawing(reading, runId);
  try {
    cursor = readCursor(lastEventId, runId);
    // Checked on a drawing of its own: the stream's draws the run afresh at its first look.
    if (cursor.size > 0) await unsentEvents(new RunDrawing(reading, runId), runId, new Map(cursor), { check: lastEventId! });
  } catch (error) {
    if (!(error instanceof CursorError)) throw error;
    throw new ApiFailure(400, errorMessage(error), { field: "Last-Event-ID" });
  }
  if ((await store.getRun(runId)) === undefined) throw new ApiFailure(404, `there is no run "${runId}"`);
  const format = streamFormat(name as StreamFormatName, runId);
  const resumed = cursor.size > 0;
  for (const [header, value] of Object.entries(format.headers)) context.header(header, value);
  return streamSSE(context, async (stream) => {
    const pollMs = feed.pollMs ?? 250;
    let open = true;
    const closed = new AbortController();
    stream.onAbort(() => {
      open = false;
      closed.abort();
    });
    const out = new BoundedStream(stream, bufferBytes);
    // Told of this process's writes to the kept runs and of the feed's news, a wake in which only the run wrote reads no kept rows.
    const kept = changes.fed ? changes.keptChanges(runId) : undefined;
    if (kept !== undefined) reading.keptChanged = () => kept.take();
    let first = true;
    try {
      while (open && !out.cut) {
        // Over a store with a change feed a stream looks only when its run changed; else every pollMs.
        const changed = changes.next(runId, changes.fed ? undefined : pollMs, closed.signal);
        const unsent = await unsentEvents(drawing, runId, cursor, { withSent: first && resumed });
        if (unsent === undefined) break;
        // A stream from the start opens as its format does; a resumed one first takes in what the client has had.
        if (first && resumed) for (const event of unsent.sent) format.absorb(event);
        else if (first) out.send(format.opening());
        first = false;
        for (const event of unsent.events) {
          if (!out.send(format.frames(event), event.id)) break;
          await out.settle();
        }
        if (out.cut) {
          feed.onCut?.({ runId, capBytes: bufferBytes });
          break;
        }
        if (unsent.finished) {
          out.send(format.closing({ runId, status: unsent.status ?? "finished" }));
          break;
        }
        await changed;
      }
    } finally {
      kept?.stop();
      changes.forget(runId);
    }
    await out.drained();
  });
}
