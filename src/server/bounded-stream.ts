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

  /** Queues an event's frames, `id` on the last; false (and the stream cut) when they would put the reader more than the cap behind. */
  send(frames: readonly Frame[], id?: string): boolean {
    if (this.wasCut) return false;
    const messages = frames.map((frame, index) => ({ ...frame, ...(index === frames.length - 1 && id ? { id } : {}) }));
    const bytes = messages.reduce((sum, message) => sum + sizeOf(message), 0);
    if (this.waitingBytes + bytes > this.capBytes && this.waitingBytes > 0) {
      this.wasCut = true;
      this.stream.abort();
      return false;
    }
    this.waitingBytes += bytes;
    for (const message of messages) {
      const size = sizeOf(message);
      this.tail = this.tail.then(async () => {
        try {
          if (!this.wasCut) await this.stream.writeSSE(message);
        } finally {
          this.waitingBytes -= size;
        }
      });
    }
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

/** About what a frame takes on the wire: its data, its event name and id, and the field names. */
function sizeOf(message: Frame & { id?: string }): number {
  return Buffer.byteLength(message.data) + (message.event?.length ?? 0) + (message.id?.length ?? 0) + 24;
}
