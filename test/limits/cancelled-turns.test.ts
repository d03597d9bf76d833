// Outside review (flow control): a call books its turn before it waits for it. A call given up
// while it waits (its run cancelled, its process killed) leaves its turn booked: the line stays
// that far ahead for everyone sharing it. Cancelling a wide fan-out of 100 waiting calls at 60 a
// minute makes the next call, in any run and process, wait 100 s for turns no one uses.
import { describe, expect, it } from "vitest";
import { providerLimit } from "../../src/limits/provider-limit.js";

describe("calls given up while they wait for their turns", () => {
  // A call books one turn ahead of the last at most (src/core/next-turn.ts), and a process's
  // calls ask one at a time: the 99 given up while they waited never booked a turn.
  it("leave the line free for the next call, not 100 turns ahead", async () => {
    const limit = providerLimit({ name: "cancelled", requestsPerMinute: 60 });
    const stop = new AbortController();
    const calls = Array.from({ length: 100 }, () =>
      limit
        .turn(stop.signal)
        .then((release) => release())
        .catch(() => undefined),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop.abort();
    await Promise.all(calls);
    let until = Date.now();
    const next = new AbortController();
    const turn = limit
      .turn(next.signal, (at) => (until = at))
      .then((release) => release())
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    next.abort();
    await turn;
    expect(until - Date.now()).toBeLessThan(2_000);
  });
});
