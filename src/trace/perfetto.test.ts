import { describe, expect, it } from "vitest";
import { bigTrace } from "../../test/helpers/big-trace.js";
import { perfettoTrace } from "./perfetto.js";

describe("perfettoTrace", () => {
  it("writes every attempt as a complete event on its lane, names the lanes, and marks replans with their reasons", () => {
    const { events } = bigTrace();
    const { traceEvents, displayTimeUnit } = perfettoTrace(events, { title: "big" });
    expect(displayTimeUnit).toBe("ms");
    const steps = traceEvents.filter((event) => event.ph === "X" && event.cat !== "model");
    // 200 runs of steps, and one extra segment for each retried one (ids divisible by 13).
    const retried = steps.filter((event) => event.name.endsWith("#1"));
    expect(steps.length).toBe(200 + retried.length);
    expect(retried.length).toBeGreaterThan(0);
    expect(retried[0]!.args).toMatchObject({ status: "failed, retried", error: "timed out", attempt: 1 });
    for (const event of steps) {
      expect(event.dur).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(event.ts)).toBe(true);
    }
    const lanes = new Set(steps.map((event) => event.tid));
    const named = traceEvents.filter((event) => event.ph === "M" && event.name === "thread_name").map((event) => event.tid);
    for (const lane of lanes) expect(named).toContain(lane);
    expect(traceEvents.filter((event) => event.cat === "replan").map((event) => event.args?.reason)).toEqual([
      expect.stringContaining("connection reset"),
      expect.stringContaining("connection reset"),
    ]);
    expect(JSON.parse(JSON.stringify(traceEvents))).toEqual(traceEvents);
  });
});
