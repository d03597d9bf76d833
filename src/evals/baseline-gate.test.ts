import { describe, expect, it } from "vitest";
import { baselinePairs, gateAgainstBaseline, type SuiteResults } from "./baseline-gate.js";
import type { SuiteColumnStats } from "./task-suite-stats.js";
import type { TrialRecord } from "./run-bench.js";

/** A results.json of one task per strategy × model, passing as `passed` says. */
function results(columns: Array<{ strategy: "react" | "rewoo"; model: string; passed: boolean }>): SuiteResults {
  const stats = columns.map(
    ({ strategy, model, passed }) =>
      ({ strategy, model, successRate: passed ? 1 : 0, costUsd: 0.01, p95Ms: 100 }) as Partial<SuiteColumnStats> as SuiteColumnStats,
  );
  const records = columns.map(
    ({ strategy, model, passed }) => ({ task: "t1", strategy, model, passed }) as Partial<TrialRecord> as TrialRecord,
  );
  return { stats, records };
}

describe("the baseline gate", () => {
  it("fails when it compared nothing, naming both sides' columns", () => {
    const current = results([
      { strategy: "react", model: "new-a", passed: false },
      { strategy: "react", model: "new-b", passed: false },
    ]);
    const baseline = results([{ strategy: "react", model: "old", passed: true }]);
    expect(gateAgainstBaseline(current, baseline, { maxDrop: 0.05 })).toEqual([
      expect.stringContaining(
        "no column of this run could be compared with the baseline: this run has react on new-a, react on new-b; the baseline has react on old",
      ),
    ]);
  });

  it("with one model on each side, holds each strategy to the same strategy: a new model against the old", () => {
    const current = results([
      { strategy: "react", model: "new", passed: false },
      { strategy: "rewoo", model: "new", passed: true },
    ]);
    const baseline = results([
      { strategy: "react", model: "old", passed: true },
      { strategy: "rewoo", model: "old", passed: true },
    ]);
    expect(gateAgainstBaseline(current, baseline, { maxDrop: 0.05 })).toEqual([
      "react on new (against react on old): success 0%, 100% below the baseline's 100%; tasks that fell: t1",
    ]);
  });

  it("--baseline-column names a column, or a model whose strategies are compared one by one", () => {
    const current = results([
      { strategy: "react", model: "new", passed: true },
      { strategy: "rewoo", model: "new", passed: false },
      { strategy: "react", model: "other", passed: true },
    ]);
    const baseline = results([
      { strategy: "react", model: "old", passed: true },
      { strategy: "rewoo", model: "old", passed: true },
      { strategy: "react", model: "older", passed: false },
    ]);
    const paired = (baselineColumn: string) =>
      baselinePairs(current, baseline, { baselineColumn }).map(
        (pair) => `${pair.current.strategy}/${pair.current.model}=${pair.baseline.model}`,
      );
    expect(paired("old")).toEqual(["react/new=old", "rewoo/new=old", "react/other=old"]);
    expect(paired("react on older")).toEqual(["react/new=older", "rewoo/new=older", "react/other=older"]);
    expect(gateAgainstBaseline(current, baseline, { baselineColumn: "old" })).toEqual([
      "rewoo on new (against rewoo on old): success 0%, 100% below the baseline's 100%; tasks that fell: t1",
    ]);
    expect(gateAgainstBaseline(current, baseline, { baselineColumn: "react on nothing" })[0]).toContain(
      'compared with the baseline as "react on nothing"',
    );
  });

  it("pairs the same strategy on the same model first; a column the baseline lacks is new and passes", () => {
    const current = results([
      { strategy: "react", model: "m", passed: true },
      { strategy: "rewoo", model: "m", passed: false },
    ]);
    const baseline = results([{ strategy: "react", model: "m", passed: true }]);
    expect(baselinePairs(current, baseline).map((pair) => pair.current.strategy)).toEqual(["react"]);
    expect(gateAgainstBaseline(current, baseline)).toEqual([]);
  });
});
