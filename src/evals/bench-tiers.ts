import type { PlanloopEvent } from "../core/events.js";
import { priceOf } from "../models/prices.js";

/** What the calls of one tier used in one run. */
export interface TierUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The price each tier is costed at in the report (seed 001 §5: plan with a strong model, do
 * simple steps with a cheap one). A tier is `planner` (plan, replan, solve, join, critic),
 * `executor` (ReAct's calls and agent steps that name no model), or the model name a step
 * gives. Offline tokens are real counts of real prompts, so the split is meaningful.
 */
export const defaultTierPrices: Readonly<Record<string, string>> = {
  planner: "gpt-4o",
  strong: "gpt-4o",
  executor: "gpt-4o-mini",
  fast: "gpt-4o-mini",
};

/** Each model call of a run's trace, by tier. */
export function tiersOf(trace: readonly PlanloopEvent[]): Record<string, TierUsage> {
  const stepModels = new Map<string, string>();
  const tiers: Record<string, TierUsage> = {};
  for (const event of trace) {
    if (event.type === "plan-created") for (const step of event.steps) if (step.model) stepModels.set(String(step.id), step.model);
    if (event.type !== "model-call-end") continue;
    const tier =
      event.stepId !== undefined ? (stepModels.get(String(event.stepId)) ?? "executor") : event.purpose === "act" ? "executor" : "planner";
    const usage = (tiers[tier] ??= { modelCalls: 0, inputTokens: 0, outputTokens: 0 });
    usage.modelCalls += 1;
    usage.inputTokens += event.usage?.inputTokens ?? 0;
    usage.outputTokens += event.usage?.outputTokens ?? 0;
  }
  return tiers;
}

/** What the tier table reads of a bench record (`BenchRecord` has it). */
export type TieredRecord = { strategy: string; tiers?: Record<string, TierUsage> | undefined };

/** Per strategy and tier: calls and tokens per run, and their cost at the tier's price. */
export function tierTable(records: readonly TieredRecord[], prices: Readonly<Record<string, string>> = defaultTierPrices): string {
  const rows: string[] = [];
  for (const strategy of [...new Set(records.map((record) => record.strategy))]) {
    const mine = records.filter((record) => record.strategy === strategy);
    const names = [...new Set(mine.flatMap((record) => Object.keys(record.tiers ?? {})))].sort();
    for (const tier of names) {
      const total = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
      for (const record of mine) {
        const usage = record.tiers?.[tier];
        if (!usage) continue;
        total.modelCalls += usage.modelCalls;
        total.inputTokens += usage.inputTokens;
        total.outputTokens += usage.outputTokens;
      }
      const model = prices[tier] ?? prices.executor ?? "gpt-4o-mini";
      const price = priceOf(model);
      const cost = price ? (total.inputTokens * price.input + total.outputTokens * price.output) / 1_000_000 / mine.length : 0;
      const per = (value: number) => (value / mine.length).toFixed(1);
      rows.push(
        `| ${strategy} | ${tier} (${model}) | ${per(total.modelCalls)} | ${per(total.inputTokens)} | ${per(total.outputTokens)} | $${cost.toFixed(5)} |`,
      );
    }
  }
  return [
    "| strategy | tier (priced as) | model calls | input tokens | output tokens | cost per run |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
