import { createParser } from "eventsource-parser";
import { ModelHttpError } from "./http-request.js";

/**
 * The `data` of each server-sent event in a response body, as parsed JSON, until the body
 * ends or the server sends `[DONE]`.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<unknown> {
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (pending.length > 0) {
        const data = pending.shift()!;
        if (data.trim() === "[DONE]") return;
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
