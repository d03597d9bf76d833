import { createParser } from "eventsource-parser";

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
        yield JSON.parse(data);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
