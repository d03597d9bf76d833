import { describe, expect, it } from "vitest";
import type { PlanloopEvent } from "../core/events.js";
import { applyEvent, emptyProgress, progressLine, renderProgress } from "./progress.js";

const stamp = (seq: number, time: number, body: object, stepId?: string | number) =>
  ({ ...body, seq, time, ...(stepId === undefined ? {} : { stepId }) }) as PlanloopEvent;

describe("progress display", () => {
  const events = [
    stamp(1, 0, {
      type: "plan-created",
      version: 1,
      steps: [
        { id: 1, task: "orders", depends_on: [] },
        { id: 2, task: "refunds", depends_on: [] },
      ],
    }),
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
    applyEvent(
      state,
      stamp(7, 310, {
        type: "plan-created",
        version: 2,
        steps: [
          { id: 1, task: "orders", depends_on: [] },
          { id: 3, task: "schema", depends_on: [] },
        ],
      }),
    );
    const lines = renderProgress(state, 400);
    expect(lines[0]).toBe("plan v2 · replans 1");
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual(["✓ 1", "· 3"]);
  });

  it("fits a long plan into the terminal: counts by status, the steps worth watching, how many are left out", () => {
    const state = emptyProgress();
    const steps = Array.from({ length: 200 }, (_, index) => ({ id: index, task: `step ${index}`, depends_on: [] }));
    applyEvent(state, stamp(1, 0, { type: "plan-created", version: 1, steps }));
    for (let id = 0; id < 150; id += 1)
      applyEvent(state, stamp(2 + id, 0, { type: "step-end", stepId: id, status: "succeeded", attempts: 1, durationMs: 1 }, id));
    for (let id = 150; id < 160; id += 1)
      applyEvent(state, stamp(200 + id, 1, { type: "step-start", stepId: id, kind: "tool", attempt: 1 }, id));
    applyEvent(state, stamp(400, 2, { type: "step-end", stepId: 150, status: "failed", attempts: 2, durationMs: 1, error: "x" }, 150));
    const lines = renderProgress(state, 10, 8);
    expect(lines).toHaveLength(8);
    expect(lines[1]).toBe("  9 running · 40 waiting to start · 150 succeeded · 1 failed");
    expect(lines[2]).toMatch(/✗ 150 .* failed/);
    expect(lines.slice(2, 7).every((line) => / (failed|running)/.test(line))).toBe(true);
    expect(lines[7]).toBe("  … and 5 more");
    // A plan that fits is shown whole.
    expect(renderProgress(state, 10, 300)).toHaveLength(201);
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

  it("says nothing of a plan with no steps (a plan stream that broke before its first step)", () => {
    expect(progressLine(stamp(0, 1, { type: "plan-created", version: 1, steps: [] }))).toBeUndefined();
  });

  it("says when a model call waits for its provider's limit, and until when, until a call is answered", () => {
    const state = emptyProgress();
    const waiting = stamp(1, 0, { type: "model-waiting", step: 0, purpose: "act", limit: "openai", until: "2026-12-07T13:20:05.250Z" }, 3);
    applyEvent(state, waiting);
    expect(renderProgress(state, 0)[0]).toBe("planning · replans 0 · waiting for the provider's limit (openai) until 13:20:05 UTC");
    expect(progressLine(waiting)).toBe("  ⏳ waiting for the provider's limit (openai) until 13:20:05 UTC (step 3)");
    applyEvent(
      state,
      stamp(2, 10, { type: "model-call-end", step: 0, purpose: "act", decision: "final", toolCalls: 0, durationMs: 10 }, 3),
    );
    expect(renderProgress(state, 10)[0]).toBe("planning · replans 0");
  });
});
