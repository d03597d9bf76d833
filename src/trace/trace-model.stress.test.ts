import { describe, expect, it } from "vitest";
import type { PlanloopEvent } from "../core/events.js";
import { summarizeTrace } from "./trace-model.js";

describe("summarizeTrace", () => {
  it("draws a run of 200,000 steps (more bars than a spread into Math.max can take)", () => {
    const count = 200_000;
    const events: PlanloopEvent[] = [];
    let seq = 0;
    events.push({ type: "plan-created", version: 1, steps: [], seq: ++seq, time: 0 });
    // Two steps at a time: each pair shares the time from 2k to 2k + 1, on lanes 0 and 1.
    for (let step = 0; step < count; step += 1) {
      const at = 2 * Math.floor(step / 2);
      events.push({ type: "step-start", stepId: step, kind: "tool", attempt: 1, seq: ++seq, time: at });
      events.push({ type: "step-end", stepId: step, status: "succeeded", attempts: 1, durationMs: 1, seq: ++seq, time: at + 1 });
    }
    const trace = summarizeTrace(events);
    expect(trace.bars).toHaveLength(count);
    expect(trace.lanes).toBe(2);
  });
});
