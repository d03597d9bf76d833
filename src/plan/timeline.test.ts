import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTimeline } from "./timeline.js";

/** The lanes by the rule itself: each bar, in start order, takes the lowest lane free when it starts. */
function lanesByScan(bars: Array<{ startedAt: number; endedAt: number }>): number[] {
  const order = bars.map((_, index) => index).sort((a, b) => bars[a]!.startedAt - bars[b]!.startedAt || a - b);
  const freeAt: number[] = [];
  const lanes: number[] = [];
  for (const index of order) {
    let lane = 0;
    while (lane < freeAt.length && freeAt[lane]! > bars[index]!.startedAt) lane += 1;
    freeAt[lane] = bars[index]!.endedAt;
    lanes.push(lane);
  }
  return lanes;
}

describe("buildTimeline", () => {
  it("gives every bar the lowest lane free when it starts, as a scan of the lanes would", () => {
    const bar = fc.record({ startedAt: fc.integer({ min: 0, max: 200 }), length: fc.integer({ min: 0, max: 60 }) });
    fc.assert(
      fc.property(fc.array(bar, { maxLength: 80 }), (drawn) => {
        const bars = drawn.map(({ startedAt, length }) => ({ startedAt, endedAt: startedAt + length, status: "succeeded", attempts: 1 }));
        const timeline = buildTimeline(bars, String);
        expect(timeline.map((entry) => entry.lane)).toEqual(lanesByScan(bars));
      }),
    );
  });

  it("bars that all overlap take one lane each; bars that never ran have none", () => {
    const bars = Array.from({ length: 5 }, (_, index) => ({ startedAt: index, endedAt: 100, status: "succeeded", attempts: 1 }));
    const timeline = buildTimeline([...bars, { status: "skipped", attempts: 0 }], String);
    expect(timeline.map((entry) => [entry.stepId, entry.lane])).toEqual([
      ["0", 0],
      ["1", 1],
      ["2", 2],
      ["3", 3],
      ["4", 4],
    ]);
  });
});
