import type { SSEStreamingApi } from "hono/streaming";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../core/seeded-random.js";
import { BoundedStream } from "./bounded-stream.js";

/** A connection whose writes wait until the test lets them through (`take`), as a reader that stops reading. */
function connection() {
  const writes: string[] = [];
  const waiting: Array<() => void> = [];
  let aborted = false;
  const stream = {
    write: (text: string) => {
      writes.push(text);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    abort: () => {
      aborted = true;
      // An aborted connection's pending write ends (hono's write swallows the error).
      for (const resolve of waiting.splice(0)) resolve();
    },
  } as unknown as SSEStreamingApi;
  const take = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    waiting.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { stream, writes, take, aborted: () => aborted };
}

describe("a stream's frames on their way to a slow reader", () => {
  it("an event of several frames is one write, its id on the last frame, as server-sent events put it", async () => {
    const { stream, writes, take } = connection();
    const out = new BoundedStream(stream, 10_000);
    expect(out.send([{ data: "a\nb" }, { event: "end", data: "{}" }], "cursor-1")).toBe(true);
    await take();
    expect(writes).toEqual(["data: a\ndata: b\n\nevent: end\ndata: {}\nid: cursor-1\n\n"]);
    expect(() => out.send([{ data: "x" }], "bad\nid")).toThrow(/line break/);
  });

  it("a reader that never takes anything is cut off before more than the cap waits for it (200 seeded event sizes)", async () => {
    const random = seededRandom(54);
    for (let round = 0; round < 200; round += 1) {
      const { stream, writes, aborted } = connection();
      // Above the largest event (a single event larger than the cap still goes out, or the stream could not go on).
      const cap = 7_000 + Math.floor(random() * 20_000);
      const out = new BoundedStream(stream, cap);
      let sent = 0;
      let most = 0;
      for (;;) {
        const frames = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ data: "x".repeat(Math.floor(random() * 2_000)) }));
        if (!out.send(frames, `id-${sent}`)) break;
        sent += 1;
        most = Math.max(most, out.waiting);
      }
      expect(out.cut).toBe(true);
      expect(aborted()).toBe(true);
      expect(most).toBeLessThanOrEqual(cap);
      // Once cut, nothing more is queued or written.
      expect(out.send([{ data: "late" }], "late")).toBe(false);
      await out.drained();
      expect(writes.length).toBeLessThanOrEqual(1);
      expect(out.waiting).toBe(0);
    }
  });

  it("an event larger than the cap still goes out to a reader that has taken everything before it", async () => {
    const { stream, writes, take } = connection();
    const out = new BoundedStream(stream, 100);
    expect(out.send([{ data: "z".repeat(500) }], "big")).toBe(true);
    await take();
    await out.drained();
    expect(writes).toHaveLength(1);
    expect(out.cut).toBe(false);
  });

  it("a reader that keeps up is never cut off, however much it is sent", async () => {
    const { stream, writes, take } = connection();
    const out = new BoundedStream(stream, 5_000);
    for (let index = 0; index < 500; index += 1) {
      expect(out.send([{ data: "y".repeat(900) }], `id-${index}`)).toBe(true);
      await take();
    }
    await out.drained();
    expect(out.cut).toBe(false);
    expect(writes).toHaveLength(500);
  });
});
