import { describe, expect, it } from "vitest";
import { memoryStore } from "../journal/memory-store.js";
import type { ModelFunction } from "../core/model.js";
import { runAgent } from "./run-agent.js";
import { suggestLimits } from "./suggest-limits.js";

/** A model that calls a tool `calls` times, then answers; or never answers (the run hits maxSteps). */
const scripted = (calls: number): ModelFunction => {
  let made = 0;
  return () =>
    made++ < calls
      ? { type: "tool_calls", calls: [{ id: `c${made}`, name: "look", arguments: { n: made } }] }
      : { type: "final", content: "done" };
};
const look = { execute: () => "seen" };

describe("suggestLimits", () => {
  it("per task type: success rate, spread of steps, cost, a suggested maxSteps by the stated rule, and what each limit would cut", async () => {
    const store = memoryStore();
    // Twenty successful runs of 1..12 tool rounds (2..13 model calls), two that ran out of steps.
    for (let index = 0; index < 20; index += 1) {
      await runAgent({
        model: scripted(1 + (index % 12)),
        toolExecutor: look,
        task: "t",
        maxSteps: 30,
        taskType: "report",
        store,
        runId: `r${index}`,
      });
    }
    for (let index = 0; index < 2; index += 1) {
      await runAgent({ model: scripted(99), toolExecutor: look, task: "t", maxSteps: 5, taskType: "report", store, runId: `f${index}` });
    }
    await runAgent({ model: scripted(0), toolExecutor: look, task: "t", store, runId: "other" });
    const stored = await Promise.all((await store.listRuns()).map((row) => store.getRun(row.runId)));
    const [untyped, report] = suggestLimits(stored);
    expect(untyped).toMatchObject({ taskType: "(none)", runs: 1, succeeded: 1 });
    expect(report).toMatchObject({ taskType: "report", runs: 22, succeeded: 20, steps: { p50: 6, high: 12, max: 13 } });
    expect(report!.successRate).toBeCloseTo(20 / 22);
    expect(report!.suggestedMaxSteps).toBe(20); // ceil(12 x 5/3), as the seed's example
    expect(report!.rule).toContain("ceil(P95 x 5/3)");
    expect(report!.cutOff).toEqual([
      { limit: 6, successfulRunsCut: 10 },
      { limit: 12, successfulRunsCut: 1 },
      { limit: 13, successfulRunsCut: 0 },
      { limit: 20, successfulRunsCut: 0 },
    ]);
  });

  it("reads end events (an events JSONL file) and skips anything else; the seed's example gives 20", () => {
    const event = (modelCalls: number) => ({
      type: "agent-end",
      status: "completed",
      steps: modelCalls,
      usage: { modelCalls, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0.01 },
      taskType: "lookup",
    });
    const events = [...Array.from({ length: 19 }, () => event(3)), event(12), { type: "step-start" }, "noise", null];
    const [lookup] = suggestLimits(events);
    expect(lookup).toMatchObject({ runs: 20, steps: { high: 3 } });
    const [seed] = suggestLimits([...Array.from({ length: 18 }, () => event(3)), event(12), event(12)]);
    expect(seed!.steps.high).toBe(12);
    expect(seed!.suggestedMaxSteps).toBe(20);
    expect(seed!.costPerRun).toBeCloseTo(0.01);
    expect(() => suggestLimits([], { percentile: 0 })).toThrow(/percentile/);
  });
});
