import { createParser } from "eventsource-parser";
import { ModelHttpError } from "./http-request.js";

/** How a stream is read: its signal, how many bytes it may send, and whether it said `[DONE]`. */
export interface EventReading {
  signal?: AbortSignal | undefined;
  maxBytes: number;
  /** Set when the server sent `[DONE]`: the stream ended as it should. */
  sawDone: boolean;
}

/**
 * The `data` of each server-sent event in a response body, as parsed JSON, until the body
 * ends or the server sends `[DONE]`. A body past `maxBytes` is an error.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, reading: EventReading): AsyncGenerator<unknown> {
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      reading.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > reading.maxBytes) throw tooLarge(reading.maxBytes);
      parser.feed(decoder.decode(value, { stream: true }));
      while (pending.length > 0) {
        const data = pending.shift()!;
        if (data.trim() === "[DONE]") {
          reading.sawDone = true;
          return;
        }
        yield parseEvent(data);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}

function parseEvent(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new ModelHttpError(`the server's stream sent an event that is not JSON: ${data.slice(0, 200)}`, { body: data, cause: error });
  }
}

export function tooLarge(maxBytes: number): ModelHttpError {
  return new ModelHttpError(`the server's answer is larger than ${maxBytes} bytes; raise maxResponseBytes if that is expected`, {});
}

/** A response body as text, refused past `maxBytes`. */
export async function readBody(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
    await response.body.cancel().catch(() => {});
  }
  return text + decoder.decode();
}
