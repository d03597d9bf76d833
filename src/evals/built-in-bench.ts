import pLimit from "p-limit";
import type { BudgetLimits } from "../core/budget.js";
import { errorMessage } from "../core/errors.js";
import type { Model } from "../core/model.js";
import type { UsageTotals } from "../core/usage.js";
import { offlineModel } from "../offline/offline-model.js";
import { runStrategy } from "../strategies/run-strategy.js";
import type { StrategyName } from "../strategies/strategy-result.js";
import { offlineTaskFor } from "./bench-offline.js";
import { answerMatches, type BenchSuite } from "./bench-suite.js";
import { benchTools } from "./bench-tools.js";
import { tiersOf, type TierUsage } from "./bench-tiers.js";

export interface BenchOptions {
  suites: readonly BenchSuite[];
  strategies: readonly StrategyName[];
  /** A real model; by default the offline model answers, with `modelLatencyMs` per call. */
  model?: Model;
  modelLatencyMs?: number;
  /** Multiplies the simulated services' latency; 0 removes it. Default 1. */
  latencyScale?: number;
  runs?: number;
  /** Runs at the same time; each has its own budget. Default 1. */
  concurrency?: number;
  /** Every run's budget; default a 2-minute deadline. */
  budget?: BudgetLimits;
  /** ReAct's model calls per task; default 20. */
  maxSteps?: number;
  /** Plan-and-Execute starts replanning while independent steps still run. Default false. */
  replanEarly?: boolean;
  /** Plan-and-Execute asks for its plans by their JSON Schema where the model can. Default true. */
  structuredPlans?: boolean;
  onRecord?: (record: BenchRecord, done: number, total: number) => void;
}

/** One strategy's run of one task. */
export interface BenchRecord {
  suite: string;
  task: string;
  width: number;
  strategy: StrategyName;
  run: number;
  status: string;
  correct: boolean;
  output?: string;
  usage: UsageTotals;
  durationMs: number;
  replans: number;
  /** Plans sent back to the planner because they were invalid (repair rounds). */
  repairs?: number;
  /** Model calls and tokens by tier (see `tiersOf`). */
  tiers?: Record<string, TierUsage>;
  error?: string;
}

/**
 * Runs every strategy on every task of the suites, with the same tools, model and budget,
 * and checks each answer. A run that fails or times out is recorded, never fatal.
 */
export async function runBuiltInBench(options: BenchOptions): Promise<BenchRecord[]> {
  const runs = options.runs ?? 1;
  const jobs = options.suites.flatMap((suite) =>
    suite.tasks.flatMap((task) =>
      options.strategies.flatMap((strategy) => Array.from({ length: runs }, (_, run) => ({ suite, task, strategy, run: run + 1 }))),
    ),
  );
  const limit = pLimit(options.concurrency ?? 1);
  let done = 0;
  const records = await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const record = await runOne(options, job);
        done += 1;
        options.onRecord?.(record, done, jobs.length);
        return record;
      }),
    ),
  );
  return records;
}

async function runOne(
  options: BenchOptions,
  job: { suite: BenchSuite; task: BenchSuite["tasks"][number]; strategy: StrategyName; run: number },
): Promise<BenchRecord> {
  const { suite, task, strategy, run } = job;
  const model =
    options.model ?? offlineModel({ tasks: suite.tasks.map(offlineTaskFor), latencyMs: options.modelLatencyMs ?? 300, onNotice: () => {} });
  const base = { suite: suite.name, task: task.id, width: task.width, strategy, run };
  const started = performance.now();
  try {
    const result = await runStrategy(strategy, {
      task: task.question,
      model,
      tools: benchTools(suite, { latencyScale: options.latencyScale ?? 1 }),
      budget: options.budget ?? { deadlineMs: 120_000 },
      maxSteps: options.maxSteps ?? 20,
      ...(options.replanEarly ? { replanEarly: true } : {}),
      ...(options.structuredPlans === false ? { structuredPlans: false } : {}),
    });
    return {
      ...base,
      status: result.status,
      correct: result.status === "completed" && answerMatches(result.output, task.expected),
      ...(result.output === undefined ? {} : { output: result.output }),
      usage: result.usage,
      durationMs: result.durationMs,
      replans: result.replans,
      tiers: tiersOf(result.trace),
      repairs: result.trace.filter((event) => event.type === "plan-invalid").length,
      ...(result.reason ? { error: result.reason } : {}),
    };
  } catch (error) {
    return {
      ...base,
      status: "error",
      correct: false,
      usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 0 },
      durationMs: performance.now() - started,
      replans: 0,
      error: errorMessage(error),
    };
  }
}
