/**
 * `response`, whose body calls `release` once it is read to the end, cancelled or broken, or
 * `signal` aborts, whichever comes first (once). A streamed answer is in flight until its last
 * chunk — the provider is still writing it and counts it against its requests at once — so a
 * limit's `concurrent` slot is held until then, not only until the headers came. A reader that
 * stops early cancels the body (`readEvents`, `readBody`), and a run cancelled mid-stream aborts
 * the signal: neither leaves the slot taken.
 */
export function releasedWhenRead(response: Response, release: () => void, signal: AbortSignal | undefined): Response {
  let released = false;
  const done = () => {
    if (released) return;
    released = true;
    signal?.removeEventListener("abort", done);
    release();
  };
  if (response.body === null || signal?.aborted === true) {
    done();
    return response;
  }
  signal?.addEventListener("abort", done, { once: true });
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (!ended) return controller.enqueue(value);
        done();
        controller.close();
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
