import type { TrialRecord } from "./run-bench.js";
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

/** How a run's columns are paired with the baseline's. */
export interface GateOptions extends GateLimits {
  /**
   * The baseline's column to compare with, for a new model against the old: a column as the
   * report names it ("react on gpt-4o"), compared with every column of this run, or a model
   * of the baseline ("gpt-4o"), compared with each strategy on it. Default: the same strategy
   * on the same model; when nothing matches so and each side has one model, the same strategy.
   */
  baselineColumn?: string;
}

type Column = Pick<SuiteColumnStats, "strategy" | "model">;

/** A column of this run and the baseline's column it is held to. */
export interface GatePair {
  current: SuiteColumnStats;
  baseline: SuiteColumnStats;
}

const columnName = (column: Column) => `${column.strategy} on ${column.model}`;

/**
 * Which baseline column each of this run's columns is compared with (see `GateOptions`). Pure.
 * Columns of this run without one are new and not compared.
 */
export function baselinePairs(current: SuiteResults, baseline: SuiteResults, options: GateOptions = {}): GatePair[] {
  const chosen = options.baselineColumn;
  if (chosen !== undefined) {
    const named = baseline.stats.find((column) => columnName(column) === chosen);
    return current.stats.flatMap((column) => {
      const before = named ?? baseline.stats.find((entry) => entry.model === chosen && entry.strategy === column.strategy);
      return before === undefined ? [] : [{ current: column, baseline: before }];
    });
  }
  const pairs = (same: (a: Column, b: Column) => boolean) =>
    current.stats.flatMap((column) => {
      const before = baseline.stats.find((entry) => same(entry, column));
      return before === undefined ? [] : [{ current: column, baseline: before }];
    });
  const exact = pairs((a, b) => a.strategy === b.strategy && a.model === b.model);
  const oneModelEach =
    new Set(current.stats.map((column) => column.model)).size === 1 && new Set(baseline.stats.map((column) => column.model)).size === 1;
  return exact.length === 0 && oneModelEach ? pairs((a, b) => a.strategy === b.strategy) : exact;
}

/**
 * What fell below the baseline, one line each (empty: the gate passes). Each column is held to
 * its baseline column (`baselinePairs`); a drop in success names the tasks whose success fell.
 * When no column could be compared the gate fails, naming both sides' columns: a gate that
 * compared nothing has not held.
 */
export function gateAgainstBaseline(current: SuiteResults, baseline: SuiteResults, options: GateOptions = {}): string[] {
  const pairs = baselinePairs(current, baseline, options);
  if (pairs.length === 0) {
    const names = (results: SuiteResults) => results.stats.map(columnName).join(", ") || "none";
    const wanted = options.baselineColumn === undefined ? "" : ` as "${options.baselineColumn}"`;
    return [
      `no column of this run could be compared with the baseline${wanted}: this run has ${names(current)}; the baseline has ${names(baseline)}. ` +
        'Name the baseline\'s column to compare with (--baseline-column "<strategy> on <model>", or a model of the baseline)',
    ];
  }
  const problems: string[] = [];
  for (const { current: column, baseline: before } of pairs) {
    const name = columnName(column) === columnName(before) ? columnName(column) : `${columnName(column)} (against ${columnName(before)})`;
    const drop = before.successRate - column.successRate;
    if (drop > (options.maxDrop ?? 0) + 1e-9) {
      const fell = tasksThatFell(current.records, baseline.records, column, before);
      problems.push(
        `${name}: success ${percent(column.successRate)}, ${percent(drop)} below the baseline's ${percent(before.successRate)}` +
          (fell.length > 0 ? `; tasks that fell: ${fell.join(", ")}` : ""),
      );
    }
    if (options.maxCostRise !== undefined && before.costUsd > 0 && column.costUsd > before.costUsd * options.maxCostRise)
      problems.push(`${name}: cost per run $${column.costUsd.toFixed(4)}, ${(column.costUsd / before.costUsd).toFixed(2)}x the baseline's`);
    if (options.maxP95Rise !== undefined && before.p95Ms > 0 && column.p95Ms > before.p95Ms * options.maxP95Rise)
      problems.push(`${name}: p95 ${Math.round(column.p95Ms)} ms, ${(column.p95Ms / before.p95Ms).toFixed(2)}x the baseline's`);
  }
  return problems;
}

function tasksThatFell(current: readonly TrialRecord[], baseline: readonly TrialRecord[], column: Column, before: Column): string[] {
  const rate = (records: readonly TrialRecord[], task: string, of: Column) => {
    const mine = records.filter((record) => record.task === task && record.strategy === of.strategy && record.model === of.model);
    return mine.length === 0 ? undefined : mine.filter((record) => record.passed).length / mine.length;
  };
  const tasks = [...new Set(current.map((record) => record.task))];
  return tasks.filter((task) => {
    const now = rate(current, task, column);
    const then = rate(baseline, task, before);
    return now !== undefined && then !== undefined && now < then;
  });
}

const percent = (value: number) => `${Math.round(value * 100)}%`;
