import type { BenchRecord } from "./built-in-bench.js";

/** What one strategy did over a group of runs. */
export interface StrategyStats {
  strategy: string;
  runs: number;
  successRate: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  medianMs: number;
  p95Ms: number;
  toolCalls: number;
  replans: number;
  /** Invalid plans sent back for repair, per run. */
  repairs: number;
  /** ReAct's median latency over this one's: above 1 is faster than ReAct. */
  speedupVsReact?: number;
  /** This one's input tokens over ReAct's: below 1 is cheaper than ReAct. */
  inputTokensVsReact?: number;
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Per-strategy statistics of a group of records (a suite, a task, or a slice), with ratios to ReAct. Pure. */
export function strategyStats(records: readonly BenchRecord[]): StrategyStats[] {
  const strategies = [...new Set(records.map((record) => record.strategy))];
  const stats = strategies.map((strategy): StrategyStats => {
    const mine = records.filter((record) => record.strategy === strategy);
    const latencies = mine.map((record) => record.durationMs);
    return {
      strategy,
      runs: mine.length,
      successRate: mine.filter((record) => record.correct).length / mine.length,
      modelCalls: mean(mine.map((record) => record.usage.modelCalls)),
      inputTokens: mean(mine.map((record) => record.usage.inputTokens)),
      outputTokens: mean(mine.map((record) => record.usage.outputTokens)),
      costUsd: mean(mine.map((record) => record.usage.costUsd)),
      medianMs: percentile(latencies, 0.5),
      p95Ms: percentile(latencies, 0.95),
      toolCalls: mean(mine.map((record) => record.usage.toolCalls)),
      replans: mean(mine.map((record) => record.replans)),
      repairs: mean(mine.map((record) => record.repairs ?? 0)),
    };
  });
  const react = stats.find((entry) => entry.strategy === "react");
  if (!react) return stats;
  return stats.map((entry) => ({
    ...entry,
    ...(entry.medianMs > 0 ? { speedupVsReact: react.medianMs / entry.medianMs } : {}),
    ...(react.inputTokens > 0 ? { inputTokensVsReact: entry.inputTokens / react.inputTokens } : {}),
  }));
}
