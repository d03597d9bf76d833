import { describe, expect, it } from "vitest";
import type { PlanloopEvent } from "../core/events.js";
import { applyEvent, emptyProgress, progressLine, renderProgress } from "./progress.js";

const stamp = (seq: number, time: number, body: object, stepId?: string | number) => ({ ...body, seq, time, ...(stepId === undefined ? {} : { stepId }) }) as PlanloopEvent;

describe("progress display", () => {
  const events = [
    stamp(1, 0, { type: "plan-created", version: 1, steps: [{ id: 1, task: "orders", depends_on: [] }, { id: 2, task: "refunds", depends_on: [] }] }),
    stamp(2, 0, { type: "step-start", stepId: 1, kind: "tool", attempt: 1 }, 1),
    stamp(3, 0, { type: "step-start", stepId: 2, kind: "tool", attempt: 1 }, 2),
    stamp(4, 40, { type: "step-retry", stepId: 2, attempt: 1, delayMs: 200, error: "timeout" }, 2),
    stamp(5, 120, { type: "step-end", stepId: 1, status: "succeeded", attempts: 1, durationMs: 120 }, 1),
    stamp(6, 300, { type: "replan-start", replans: 1, reason: "step 2 failed" }),
  ];

  it("shows each step's status, elapsed time, retries and the replans", () => {
    const state = emptyProgress();
    for (const event of events) applyEvent(state, event);
    const lines = renderProgress(state, 500);
    expect(lines[0]).toBe("plan v1 · replans 1");
    expect(lines[1]).toMatch(/✓ 1 +orders +succeeded 120 ms$/);
    expect(lines[2]).toMatch(/▶ 2 +refunds +running 500 ms \(attempt 2\)$/);
  });

  it("keeps succeeded steps when a new plan version arrives", () => {
    const state = emptyProgress();
    for (const event of events) applyEvent(state, event);
    applyEvent(state, stamp(7, 310, { type: "plan-created", version: 2, steps: [{ id: 1, task: "orders", depends_on: [] }, { id: 3, task: "schema", depends_on: [] }] }));
    const lines = renderProgress(state, 400);
    expect(lines[0]).toBe("plan v2 · replans 1");
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual(["✓ 1", "· 3"]);
  });

  it("writes one plain line per change for logs", () => {
    expect(events.map(progressLine).filter(Boolean)).toEqual([
      "plan v1: 2 steps",
      "  ▶ step 1 started",
      "  ▶ step 2 started",
      "  ↻ step 2 retry after 200 ms: timeout",
      "  ✓ step 1 succeeded in 120 ms",
      "replan 1: step 2 failed",
    ]);
  });
});
