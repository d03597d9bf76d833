import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideBooking, type BookedLine } from "./booked-line.js";
import { clockSlackMs } from "./next-turn.js";

const bookings = fc.array(
  fc.record({ afterMs: fc.integer({ min: 0, max: 500 }), intervalMs: fc.integer({ min: -300, max: 3_000 }), aheadMs: fc.nat(200) }),
  { minLength: 1, maxLength: 40 },
);

describe("decideBooking", () => {
  it("on a clock that only goes on, books the later of not-before, the line's next turn and the cooldown", () => {
    fc.assert(
      fc.property(bookings, (script) => {
        let line: BookedLine = { next: 0, closed: 0, at: 0 };
        let now = 1_765_000_000_000;
        for (const { afterMs, intervalMs, aheadMs } of script) {
          now += afterMs;
          const { start, line: after } = decideBooking(line, { intervalMs, now, notBefore: now + aheadMs });
          expect(start).toBe(Math.max(now + aheadMs, line.next, line.closed));
          line = after;
        }
      }),
      { seed: 58, numRuns: 200 },
    );
  });

  it("moves a line booked on a clock since set back by the setback, so what was booked still counts", () => {
    fc.assert(
      fc.property(bookings, fc.integer({ min: clockSlackMs + 1, max: 86_400_000 }), (script, backMs) => {
        let line: BookedLine = { next: 0, closed: 0, at: 0 };
        let now = 1_765_000_000_000;
        for (const { afterMs, intervalMs } of script) {
          now += afterMs;
          line = decideBooking(line, { intervalMs, now }).line;
        }
        const ahead = Math.max(0, line.next - now);
        const { start } = decideBooking(line, { intervalMs: 10, now: now - backMs });
        expect(start).toBeCloseTo(now - backMs + ahead, 6);
      }),
      { seed: 58, numRuns: 200 },
    );
  });
});
