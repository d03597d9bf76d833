import type { TrialRecord } from "./run-task-suite.js";
import type { SuiteColumnStats } from "./task-suite-stats.js";

/** A bench run's results as results.json holds them. */
export interface SuiteResults {
  stats: SuiteColumnStats[];
  records: TrialRecord[];
}

export interface GateLimits {
  /** Success may fall this much below the baseline's (0.05: five points); default 0. */
  maxDrop?: number;
  /** Cost per run may rise to this many times the baseline's (1.2: a fifth more). */
  maxCostRise?: number;
  /** The p95 latency may rise to this many times the baseline's. */
  maxP95Rise?: number;
}

/**
 * What fell below the baseline, one line each (empty: the gate passes). Each strategy × model
 * is compared with the same column of the baseline; a drop in success names the tasks whose
 * success fell. Columns the baseline does not have are new and pass.
 */
export function gateAgainstBaseline(current: SuiteResults, baseline: SuiteResults, limits: GateLimits = {}): string[] {
  const problems: string[] = [];
  for (const column of current.stats) {
    const before = baseline.stats.find((entry) => entry.strategy === column.strategy && entry.model === column.model);
    if (before === undefined) continue;
    const name = `${column.strategy} on ${column.model}`;
    const drop = before.successRate - column.successRate;
    if (drop > (limits.maxDrop ?? 0) + 1e-9) {
      const fell = tasksThatFell(current.records, baseline.records, column);
      problems.push(
        `${name}: success ${percent(column.successRate)}, ${percent(drop)} below the baseline's ${percent(before.successRate)}` +
          (fell.length > 0 ? `; tasks that fell: ${fell.join(", ")}` : ""),
      );
    }
    if (limits.maxCostRise !== undefined && before.costUsd > 0 && column.costUsd > before.costUsd * limits.maxCostRise)
      problems.push(`${name}: cost per run $${column.costUsd.toFixed(4)}, ${(column.costUsd / before.costUsd).toFixed(2)}x the baseline's`);
    if (limits.maxP95Rise !== undefined && before.p95Ms > 0 && column.p95Ms > before.p95Ms * limits.maxP95Rise)
      problems.push(`${name}: p95 ${Math.round(column.p95Ms)} ms, ${(column.p95Ms / before.p95Ms).toFixed(2)}x the baseline's`);
  }
  return problems;
}

function tasksThatFell(
  current: readonly TrialRecord[],
  baseline: readonly TrialRecord[],
  column: { strategy: string; model: string },
): string[] {
  const rate = (records: readonly TrialRecord[], task: string) => {
    const mine = records.filter((record) => record.task === task && record.strategy === column.strategy && record.model === column.model);
    return mine.length === 0 ? undefined : mine.filter((record) => record.passed).length / mine.length;
  };
  const tasks = [...new Set(current.map((record) => record.task))];
  return tasks.filter((task) => {
    const now = rate(current, task);
    const before = rate(baseline, task);
    return now !== undefined && before !== undefined && now < before;
  });
}

const percent = (value: number) => `${Math.round(value * 100)}%`;
