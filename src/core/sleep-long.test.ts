// Outside review (flow control): a call waits for its booked turn with `sleep`. Node's setTimeout
// takes at most 2^31 - 1 ms (24.8 days) and fires a longer wait after 1 ms, so a turn booked that
// far ahead (a clock set back a month, a slow rate with a long queue) let the call through at once:
// the limit was not kept at all.
import { describe, expect, it } from "vitest";
import { sleep } from "./clock.js";

describe("sleep past setTimeout's range", () => {
  it("does not end early for a wait longer than 2^31 - 1 ms", async () => {
    const stop = new AbortController();
    let ended = false;
    const waiting = sleep(2 ** 31 + 5_000, { signal: stop.signal }).then(
      () => (ended = true),
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended).toBe(false);
    stop.abort();
    await waiting;
  });

  it("still ends a wait within range on time, and at once for none", async () => {
    const started = Date.now();
    await sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    await sleep(-5);
  });
});
