import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../core/model.js";
import { providerLimit } from "../limits/provider-limit.js";
import { releasedWhenRead } from "./held-response.js";
import { openAICompatible } from "./openai-compatible.js";

/** A body that sends `chunks` and then stays open until `end()` (or fails, with `fail`). */
function openBody(chunks: string[]) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(each) {
      controller = each;
      for (const chunk of chunks) each.enqueue(new TextEncoder().encode(chunk));
    },
  });
  return { body, end: () => controller.close(), fail: (error: Error) => controller.error(error) };
}

function counted() {
  const seen = { releases: 0 };
  return { seen, release: () => (seen.releases += 1) };
}

describe("releasedWhenRead: a response holds its slot until its body is done", () => {
  it("releases once the body is read to its end, not when the headers come", async () => {
    const { seen, release } = counted();
    const { body, end } = openBody(["a", "b"]);
    const response = releasedWhenRead(new Response(body, { headers: { "x-kept": "1" } }), release, undefined);
    expect(response.headers.get("x-kept")).toBe("1");
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    expect(seen.releases).toBe(0);
    end();
    expect((await reader.read()).done).toBe(true);
    expect(seen.releases).toBe(1);
  });

  it("releases once when the reader cancels, the body breaks, or the signal aborts", async () => {
    const cancelled = counted();
    const first = openBody(["a"]);
    await releasedWhenRead(new Response(first.body), cancelled.release, undefined).body!.cancel();
    expect(cancelled.seen.releases).toBe(1);

    const broken = counted();
    const second = openBody([]);
    const reading = releasedWhenRead(new Response(second.body), broken.release, undefined).text();
    second.fail(new Error("reset"));
    await expect(reading).rejects.toThrow("reset");
    expect(broken.seen.releases).toBe(1);

    const aborted = counted();
    const stop = new AbortController();
    const third = openBody(["a"]);
    const response = releasedWhenRead(new Response(third.body), aborted.release, stop.signal);
    stop.abort();
    stop.abort();
    await response.body!.cancel();
    expect(aborted.seen.releases).toBe(1);
  });

  it("releases at once a response without a body, or whose signal already aborted", () => {
    const { seen, release } = counted();
    releasedWhenRead(new Response(null, { status: 204 }), release, undefined);
    releasedWhenRead(new Response("x"), release, AbortSignal.abort());
    expect(seen.releases).toBe(2);
  });
});

describe("concurrent: a stream given up leaves its slot", () => {
  const request = (signal = new AbortController().signal): ModelRequest => ({
    messages: [{ role: "user", content: "hi" }],
    step: 0,
    signal,
    tools: [],
    purpose: "plan",
  });
  /** A provider whose streams send one piece of text and then never end. */
  const endless = (() => {
    const chunk = { choices: [{ index: 0, delta: { role: "assistant", content: "hel" } }] };
    return new Response(openBody([`data: ${JSON.stringify(chunk)}\n\n`]).body, { headers: { "content-type": "text/event-stream" } });
  }) as unknown as typeof globalThis.fetch;

  it("a reader that stops early lets the next call have the slot", async () => {
    const limit = providerLimit({ name: "early-stop", concurrent: 1 });
    const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch: endless, limit });
    for await (const part of model.streamText!(request())) {
      expect(part).toEqual({ type: "text", text: "hel" });
      break;
    }
    const next = model.streamText!(request(AbortSignal.timeout(2_000)))[Symbol.asyncIterator]();
    expect((await next.next()).value).toEqual({ type: "text", text: "hel" });
    await next.return?.(undefined);
  });

  it("a call cancelled mid-stream lets the next call have the slot", async () => {
    const limit = providerLimit({ name: "cancelled-stream", concurrent: 1 });
    const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch: endless, limit });
    const stop = new AbortController();
    const first = model.streamText!(request(stop.signal))[Symbol.asyncIterator]();
    await first.next(); // streaming, and never to end on its own
    stop.abort(); // the run is cancelled; nobody reads the stream again
    const next = model.streamText!(request(AbortSignal.timeout(2_000)))[Symbol.asyncIterator]();
    expect((await next.next()).value).toEqual({ type: "text", text: "hel" });
    await next.return?.(undefined);
  });
});
