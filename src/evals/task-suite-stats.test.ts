import { describe, expect, it } from "vitest";
import type { TrialRecord } from "./run-bench.js";
import { suiteTable, taskSuiteStats, wilson } from "./task-suite-stats.js";

const usage = { modelCalls: 2, inputTokens: 100, outputTokens: 10, toolCalls: 1, costUsd: 0.01 };
const record = (task: string, trial: number, passed: boolean, more: Partial<TrialRecord> = {}): TrialRecord => ({
  task,
  strategy: "plan-and-execute",
  model: "m",
  trial,
  runId: `${task}-${trial}`,
  status: passed ? "completed" : "failed",
  passed,
  score: Number(passed),
  durationMs: 100 * trial,
  usage,
  replans: 0,
  repairs: 0,
  ...more,
});

describe("taskSuiteStats", () => {
  it("success over runs, pass^k and pass@k over tasks, repairs and budget stops per run", () => {
    const records = [
      record("a", 1, true),
      record("a", 2, true),
      record("b", 1, true, { repairs: 2 }),
      record("b", 2, false, { status: "budget_exceeded", limit: "maxCostUsd" }),
      record("c", 1, false),
      record("c", 2, false, { repairs: 1 }),
    ];
    const [stats] = taskSuiteStats(records);
    expect(stats).toMatchObject({
      runs: 6,
      successRate: 0.5,
      passAll: 1 / 3,
      passAny: 2 / 3,
      trials: 2,
      repairs: 0.5,
      budgetStops: { maxCostUsd: 1 },
    });
    expect(stats!.totalCostUsd).toBeCloseTo(0.06, 10);
    expect(stats!.medianMs).toBe(150);
    expect([stats!.successLow, stats!.successHigh]).toEqual(wilson(3, 6));
  });

  it("the unsupported-claim rate: unsupported claims over all claims the column's answers made", () => {
    const claims = (count: number, unsupported: number) => ({ claims: { claims: count, unsupported } });
    const records = [
      record("a", 1, true, claims(10, 1)),
      record("b", 1, true, claims(5, 2)),
      record("c", 1, true),
      record("a", 1, true, { strategy: "react", ...claims(4, 0) }),
      record("a", 1, true, { strategy: "rewoo" }),
    ];
    const stats = taskSuiteStats(records);
    const rate = (strategy: string) => stats.find((entry) => entry.strategy === strategy)!.unsupportedRate;
    expect(rate("plan-and-execute")).toBeCloseTo(3 / 15, 10);
    expect(rate("react")).toBe(0);
    expect(rate("rewoo")).toBeUndefined();
    const table = suiteTable(stats);
    expect(table).toContain("| unsupported claims |");
    expect(table.split("\n").find((line) => line.startsWith("| plan-and-execute "))).toMatch(/\| 20\.0% \|$/);
    expect(table.split("\n").find((line) => line.startsWith("| rewoo "))).toMatch(/\| — \|$/);
  });

  it("the Wilson interval: inside 0..1, narrower with more runs", () => {
    const [low, high] = wilson(7, 9);
    expect(low).toBeCloseTo(0.453, 3);
    expect(high).toBeCloseTo(0.937, 3);
    const [wideLow, wideHigh] = wilson(70, 90);
    expect(wideHigh - wideLow).toBeLessThan(high - low);
    expect(wilson(0, 5)[0]).toBe(0);
    expect(wilson(5, 5)[1]).toBe(1);
  });
});
