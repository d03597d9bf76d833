import { describe, expect, it } from "vitest";
import { killPointsOf } from "./crash-kills.js";

// A run that waited for a decision: three commits and one call, then two commits and two calls.
const shapes = [
  { commits: 3, calls: 1, ms: 100 },
  { commits: 2, calls: 2, ms: 50 },
];

describe("killPointsOf", () => {
  it("counts commits and calls over the processes for the report, within its process for the child", () => {
    const points = killPointsOf(shapes, { points: "every", randomKills: 0, seed: 1 });
    expect(points.map((point) => point.runId)).toEqual([
      ...["crash-after-1", "crash-after-2", "crash-after-3", "crash-after-4"],
      ...["crash-in-call-1", "crash-in-call-2", "crash-in-call-3"],
    ]);
    expect(points[3]).toMatchObject({ process: 2, at: { commit: 1 }, shown: { killedInProcess: 2, killedAfterCommit: 4 } });
    expect(points[6]).toMatchObject({ process: 2, at: { call: 2 }, shown: { killedInProcess: 2, killedInCall: 3 } });
  });

  it("random kills: a delay after a return and a time in turn, the same for the same seed", () => {
    const kills = killPointsOf(shapes, { points: 0, randomKills: 4, seed: 3 });
    expect(kills).toEqual(killPointsOf(shapes, { points: 0, randomKills: 4, seed: 3 }));
    expect(kills.map((kill) => ("ms" in kill.at ? ("afterCall" in kill.at ? "after" : "time") : "?"))).toEqual([
      "after",
      "time",
      "after",
      "time",
    ]);
    for (const { at, process } of kills) {
      const ms = "ms" in at ? at.ms : -1;
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan("afterCall" in at ? 21 : process === 1 ? 100 : 50);
    }
  });
});
