import { describe, expect, it } from "vitest";
import { providerLimit } from "../../src/index.js";

/**
 * docs/limits.md, "One cooldown": "the limit is closed for everyone that shares it until then —
 * the calls already waiting and the ones that come later [...] A call whose booked turn falls
 * inside the cooldown books again after it [...] With a rate, the turns after a cooldown stay
 * spaced: no herd when it reopens." Guards (these held).
 */
describe("a cooldown set while calls wait for their turns (guards)", () => {
  it("(guard, held) no call goes inside the cooldown, and the turns after it stay a turn apart", async () => {
    const limit = providerLimit({ name: `herd-${Math.random()}`, rate: { requests: 10, perMs: 1_000 } });
    const started = performance.now();
    const went: number[] = [];
    const calls = Array.from({ length: 6 }, async () => {
      const release = await limit.turn();
      went.push(performance.now() - started);
      release();
    });
    // The first call goes at once; while the others wait, the provider answers 429, Retry-After 0.5 s.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closedAt = performance.now() - started;
    const before = went.length;
    await limit.coolDown(500);
    await Promise.all(calls);
    went.sort((a, b) => a - b);
    const after = went.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(5);
    // A timer never fires early by more than a ms or so; late wakes (a busy machine) only push turns later.
    for (const at of after) expect(at).toBeGreaterThanOrEqual(closedAt + 495);
    // Spaced: the k-th turn after the cooldown comes no sooner than k turns after it reopened.
    after.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(closedAt + 495 + k * 100 - 5));
  });
});
