import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clockSlackMs, decideNextTurn, longestCooldownMs } from "./next-turn.js";
import type { FairLine } from "./fair-turn.js";

const intervalMs = 100;

/** Askers on a clock that only goes on: each step one asks after `afterMs`, maybe closing the line first. */
const steps = fc.array(
  fc.record({ afterMs: fc.integer({ min: 0, max: 250 }), closeForMs: fc.option(fc.integer({ min: 0, max: 1500 }), { freq: 8 }) }),
  { minLength: 1, maxLength: 120 },
);

describe("decideNextTurn", () => {
  it("books turns at least an interval apart, and never more than one turn ahead of the asker", () => {
    fc.assert(
      fc.property(steps, (script) => {
        let line: FairLine = { next: 0, closed: 0, lastMark: 0 };
        let now = 1_765_000_000_000;
        const starts: number[] = [];
        for (const { afterMs, closeForMs } of script) {
          now += afterMs;
          if (closeForMs !== null) line = { ...line, closed: Math.max(line.closed, now + closeForMs) };
          const decision = decideNextTurn(line, { intervalMs, now });
          line = decision.line;
          if ("start" in decision.turn) starts.push(decision.turn.start);
          else expect(decision.turn.retryAt).toBeGreaterThan(now);
          // The bound a clock set back is measured against: never crossed on a clock that goes on.
          expect(line.next - intervalMs).toBeLessThanOrEqual(Math.max(now + intervalMs, line.closed));
        }
        for (let index = 1; index < starts.length; index += 1)
          expect(starts[index]! - starts[index - 1]!).toBeGreaterThanOrEqual(intervalMs);
      }),
      { seed: 61, numRuns: 300 },
    );
  });

  it("starts a line booked on a clock since set back from the new now; a small setback only waits it out", () => {
    const line: FairLine = { next: 0, closed: 0, lastMark: 0 };
    const booked = decideNextTurn(line, { intervalMs, now: 10_000_000 }).line;
    const anHourBack = decideNextTurn(booked, { intervalMs, now: 10_000_000 - 3_600_000 });
    expect(anHourBack.turn).toEqual({ start: 10_000_000 - 3_600_000 });
    const slightlyBack = decideNextTurn(booked, { intervalMs, now: 10_000_000 - clockSlackMs / 2 });
    expect(slightlyBack.turn).toEqual({ retryAt: 10_000_000 });
  });

  it("counts a cooldown that ends further ahead than any can as over, and writes it so; a minute ahead is waited out", () => {
    const line: FairLine = { next: 0, closed: 10_000_000 + 30_000, lastMark: 0 };
    const anHourBack = decideNextTurn(line, { intervalMs, now: 10_000_000 - 3_600_000 });
    expect(anHourBack).toEqual({
      turn: { start: 10_000_000 - 3_600_000 },
      line: { next: 10_000_000 - 3_600_000 + intervalMs, closed: 0, lastMark: 0 },
    });
    const inTime = decideNextTurn(line, { intervalMs, now: 10_000_000 - longestCooldownMs + 30_000 });
    expect(inTime.turn).toEqual({ start: 10_000_000 + 30_000 });
  });
});
