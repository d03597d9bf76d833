import type { StreamEvent } from "../client/api-types.js";

/** One server-sent event of a stream: its data, and its `event:` name where the format uses one. */
export interface Frame {
  data: string;
  event?: string;
}

/**
 * How a run's events are written on its stream. A format may keep state (what is open, what
 * a step called): a resumed stream first `absorb`s the events the client has had, then turns
 * each new one into `frames`.
 */
export interface StreamFormat {
  /** Frames before the first event, on a stream from the start. */
  opening(): Frame[];
  absorb(event: StreamEvent): void;
  frames(event: StreamEvent): Frame[];
  /** Frames after the run's end. */
  closing(end: { runId: string; status: string }): Frame[];
  /** Headers the format's readers look for. */
  headers: Record<string, string>;
}
