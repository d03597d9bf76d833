import { percentile } from "./bench-stats.js";
import type { TrialRecord } from "./run-bench.js";

/** What one strategy on one model did over a suite's runs. */
export interface SuiteColumnStats {
  strategy: string;
  model: string;
  runs: number;
  /** Runs whose answer passed, of all runs. */
  successRate: number;
  /** The 95% Wilson interval of the success rate. */
  successLow: number;
  successHigh: number;
  /** Tasks whose every trial passed (pass^k), of all tasks. */
  passAll: number;
  /** Tasks with at least one trial passing (pass@k), of all tasks. */
  passAny: number;
  trials: number;
  medianMs: number;
  p95Ms: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Mean cost per run, and the whole column's. */
  costUsd: number;
  totalCostUsd: number;
  toolCalls: number;
  replans: number;
  /** Invalid plans sent back for repair, per run. */
  repairs: number;
  /** Runs stopped by a budget limit, by limit. */
  budgetStops: Record<string, number>;
  /** Claims of the answers that no cited step supports, of all claims checked (grounding); undefined when none were. */
  unsupportedRate: number | undefined;
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Per strategy × model: success with its interval, pass^k and pass@k over tasks, latency, calls, tokens, cost. Pure. */
export function taskSuiteStats(records: readonly TrialRecord[]): SuiteColumnStats[] {
  const columns = [...new Map(records.map((record) => [`${record.strategy}\u0000${record.model}`, record])).values()];
  return columns.map(({ strategy, model }) => {
    const mine = records.filter((record) => record.strategy === strategy && record.model === model);
    const byTask = new Map<string, TrialRecord[]>();
    for (const record of mine) byTask.set(record.task, [...(byTask.get(record.task) ?? []), record]);
    const tasks = [...byTask.values()];
    const passed = mine.filter((record) => record.passed).length;
    const [successLow, successHigh] = wilson(passed, mine.length);
    const budgetStops: Record<string, number> = {};
    for (const record of mine)
      if (record.status === "budget_exceeded") budgetStops[record.limit ?? "budget"] = (budgetStops[record.limit ?? "budget"] ?? 0) + 1;
    return {
      strategy,
      model,
      runs: mine.length,
      successRate: mine.length === 0 ? 0 : passed / mine.length,
      successLow,
      successHigh,
      passAll: tasks.filter((trials) => trials.every((record) => record.passed)).length / tasks.length,
      passAny: tasks.filter((trials) => trials.some((record) => record.passed)).length / tasks.length,
      trials: Math.max(...tasks.map((trials) => trials.length)),
      medianMs: percentile(
        mine.map((record) => record.durationMs),
        0.5,
      ),
      p95Ms: percentile(
        mine.map((record) => record.durationMs),
        0.95,
      ),
      modelCalls: mean(mine.map((record) => record.usage.modelCalls)),
      inputTokens: mean(mine.map((record) => record.usage.inputTokens)),
      outputTokens: mean(mine.map((record) => record.usage.outputTokens)),
      costUsd: mean(mine.map((record) => record.usage.costUsd)),
      totalCostUsd: mine.reduce((sum, record) => sum + record.usage.costUsd, 0),
      toolCalls: mean(mine.map((record) => record.usage.toolCalls)),
      replans: mean(mine.map((record) => record.replans)),
      repairs: mean(mine.map((record) => record.repairs ?? 0)),
      budgetStops,
      unsupportedRate: unsupportedRate(mine),
    };
  });
}

/** Unsupported claims over all claims the column's answers made. */
function unsupportedRate(records: readonly TrialRecord[]): number | undefined {
  const claims = records.reduce((sum, record) => sum + (record.claims?.claims ?? 0), 0);
  if (claims === 0) return undefined;
  return records.reduce((sum, record) => sum + (record.claims?.unsupported ?? 0), 0) / claims;
}

/** The 95% Wilson score interval of `successes` in `total` (0 to 1 each end). */
export function wilson(successes: number, total: number): [number, number] {
  if (total === 0) return [0, 1];
  const z = 1.959964;
  const p = successes / total;
  const denominator = 1 + (z * z) / total;
  const centre = (p + (z * z) / (2 * total)) / denominator;
  const spread = (z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total))) / denominator;
  return [Math.max(0, centre - spread), Math.min(1, centre + spread)];
}

/** The stats as a Markdown table, one row per strategy × model. */
export function suiteTable(stats: readonly SuiteColumnStats[]): string {
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  const rows = stats.map((entry) =>
    [
      entry.strategy,
      entry.model,
      `${percent(entry.successRate)} (${percent(entry.successLow)}–${percent(entry.successHigh)})`,
      percent(entry.passAll),
      percent(entry.passAny),
      `${Math.round(entry.medianMs)} / ${Math.round(entry.p95Ms)}`,
      entry.modelCalls.toFixed(1),
      `${Math.round(entry.inputTokens)} / ${Math.round(entry.outputTokens)}`,
      `$${entry.costUsd.toFixed(4)} ($${entry.totalCostUsd.toFixed(4)})`,
      entry.toolCalls.toFixed(1),
      entry.replans.toFixed(1),
      entry.repairs.toFixed(1),
      Object.entries(entry.budgetStops)
        .map(([limit, count]) => `${limit} ${count}`)
        .join(", ") || "—",
      entry.unsupportedRate === undefined ? "—" : `${(entry.unsupportedRate * 100).toFixed(1)}%`,
    ].join(" | "),
  );
  const k = Math.max(1, ...stats.map((entry) => entry.trials));
  return [
    `| strategy | model | success (95% CI) | pass^${k} | pass@${k} | ms median / p95 | model calls | tokens in / out | cost per run (all) | tool calls | replans | plan repairs | budget stops | unsupported claims |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** The plan scorecards of the tasks with a gold plan, averaged over trials: one row per task × strategy × model. */
export function scorecardTable(records: readonly TrialRecord[]): string | undefined {
  const scored = records.filter((record) => record.scorecard !== undefined);
  if (scored.length === 0) return undefined;
  const groups = new Map<string, TrialRecord[]>();
  for (const record of scored) {
    const key = `${record.task}\u0000${record.strategy}\u0000${record.model}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const fraction = (values: number[]) => `${Math.round(mean(values) * 100)}%`;
  const rows = [...groups.values()].map((group) => {
    const cards = group.map((record) => record.scorecard!);
    const makespans = cards.flatMap((card) => (card.makespanOverBound === undefined ? [] : [card.makespanOverBound]));
    return [
      group[0]!.task,
      group[0]!.strategy,
      group[0]!.model,
      `${fraction(cards.map((card) => card.calls.precision))} / ${fraction(cards.map((card) => card.calls.recall))}`,
      `${fraction(cards.map((card) => card.edges.precision))} / ${fraction(cards.map((card) => card.edges.recall))}`,
      `${mean(cards.map((card) => card.criticalPath.emitted)).toFixed(1)} / ${cards[0]!.criticalPath.gold}`,
      mean(cards.map((card) => card.serialized)).toFixed(1),
      makespans.length === 0 ? "—" : mean(makespans).toFixed(2),
    ].join(" | ");
  });
  return [
    "| task | strategy | model | calls precision / recall | edges precision / recall | chain run / gold | steps serialized | makespan / bound |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}
