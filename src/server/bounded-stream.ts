import type { SSEStreamingApi } from "hono/streaming";
import type { Frame } from "./stream-frame.js";

/**
 * A stream's frames on their way to its reader, never more than `capBytes` of them waiting in
 * this process: a reader that falls that far behind (one that stopped reading) is cut off — the
 * connection is closed, what waited is dropped — and reconnects with the `Last-Event-ID` of the
 * last whole event it got, losing nothing (the events are in the store). Frames are queued in
 * order without waiting for the reader; while many wait, the connection is given a turn between
 * events, so a reader that keeps up takes them as they come.
 */
export class BoundedStream {
  private tail: Promise<unknown> = Promise.resolve();
  private waitingBytes = 0;
  private wasCut = false;

  constructor(
    private readonly stream: SSEStreamingApi,
    private readonly capBytes: number,
  ) {}

  /** Whether the reader was cut off: nothing more goes out on this connection. */
  get cut(): boolean {
    return this.wasCut;
  }

  /** Bytes queued for the reader that the connection has not taken yet. */
  get waiting(): number {
    return this.waitingBytes;
  }

  /**
   * Queues an event's frames, `id` on the last, as one write: a reader cut off has each event
   * whole or not at all (a format's event of several frames is never resumed halfway). False (and
   * the stream cut) when they would put the reader more than the cap behind.
   */
  send(frames: readonly Frame[], id?: string): boolean {
    if (this.wasCut || frames.length === 0) return !this.wasCut;
    const text = frames.map((frame, index) => sseText(frame, index === frames.length - 1 ? id : undefined)).join("");
    const bytes = Buffer.byteLength(text);
    if (this.waitingBytes + bytes > this.capBytes && this.waitingBytes > 0) {
      this.wasCut = true;
      this.stream.abort();
      return false;
    }
    this.waitingBytes += bytes;
    this.tail = this.tail.then(async () => {
      try {
        if (!this.wasCut) await this.stream.write(text);
      } finally {
        this.waitingBytes -= bytes;
      }
    });
    return true;
  }

  /** Gives the connection a turn when a quarter of the cap or more waits (between events). */
  async settle(): Promise<void> {
    if (this.waitingBytes >= this.capBytes / 4) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Resolves when everything queued went out (or the stream was cut): before the stream ends. */
  drained(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}

/** A frame as server-sent events put it: its event name, each line of its data, its id, and a blank line. */
function sseText(frame: Frame, id: string | undefined): string {
  for (const value of [frame.event, id])
    if (value !== undefined && /[\r\n]/.test(value))
      throw new Error(`an SSE event name or id must not hold a line break: ${JSON.stringify(value)}`);
  const data = frame.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("");
  return `${frame.event ? `event: ${frame.event}\n` : ""}${data}${id ? `id: ${id}\n` : ""}\n`;
}
