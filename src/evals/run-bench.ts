import { randomUUID } from "node:crypto";
import { memoryStore } from "../journal/memory-store.js";
import { type CheckpointStore } from "../journal/checkpoint-store.js";
import type { Model } from "../core/model.js";
import type { Tool } from "../core/tools/define-tool.js";
import type { BudgetLimits } from "../core/budget.js";
import type { UsageTotals } from "../core/usage.js";
import { runStrategy } from "../strategies/run-strategy.js";
import type { StrategyName, StrategyStatus } from "../strategies/strategy-result.js";
import { planScorecard, type PlanScorecard } from "./plan-scorecard.js";
import { scoreRun, type Scorer } from "./scorers.js";
import { SuiteError, type TaskSuite } from "./task-suite.js";

export interface TaskSuiteOptions {
  suite: TaskSuite;
  tools: readonly Tool[];
  strategies: readonly StrategyName[];
  /**
   * One column each; the name labels it. `planner` (tiers): the planning strategies plan with
   * it, and `model` runs their agent steps and ReAct's loop.
   */
  models: ReadonlyArray<{ name: string; model: Model; planner?: Model }>;
  /** Runs of every task × strategy × model (for pass^k and pass@k); default 1. */
  trials?: number;
  /** Runs at the same time; default 4. */
  concurrency?: number;
  /** The same budget for every run. */
  budget?: BudgetLimits;
  /** Each run kept here, its id starting with the bench run's (`benchId`). */
  store?: CheckpointStore;
  benchId?: string;
  scorers?: Readonly<Record<string, Scorer>>;
  /**
   * Plan-and-Execute reuses the plan that succeeded for a task on a model in the later trials
   * (`planCache`, kept in `store`, else in memory): with and without, side by side.
   */
  planCache?: boolean;
  onRecord?: (record: TrialRecord, done: number, total: number) => void;
}

/** One run of one task: how it ended, whether its answer passed, what it cost. */
export interface TrialRecord {
  task: string;
  strategy: StrategyName;
  model: string;
  trial: number;
  runId: string;
  status: StrategyStatus;
  passed: boolean;
  score: number;
  output?: string;
  reason?: string;
  durationMs: number;
  usage: UsageTotals;
  replans: number;
  /** Invalid plans sent back to the planner for repair. */
  repairs: number;
  /** The budget limit that stopped it, for `budget_exceeded`. */
  limit?: string;
  /** The answer's claims as grounding checked them: how many, and how many no cited step supports. */
  claims?: { claims: number; unsupported: number };
  /** With a gold plan: how the run's plan compares with it. */
  scorecard?: PlanScorecard;
}

/**
 * Runs every task × strategy × model × trial of a suite of the user's own, each with the same
 * tools and budget, scores each answer, and returns one record per run (in a fixed order,
 * whatever order they finished in). The report is made from these (`taskSuiteStats`).
 */
export async function runBench(options: TaskSuiteOptions): Promise<TrialRecord[]> {
  const trials = options.trials ?? 1;
  const benchId = options.benchId ?? `bench-${randomUUID().slice(0, 8)}`;
  const jobs = options.suite.tasks.flatMap((task) =>
    options.strategies.flatMap((strategy) =>
      options.models.flatMap((model) => Array.from({ length: trials }, (_, index) => ({ task, strategy, model, trial: index + 1 }))),
    ),
  );
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const missing = options.suite.tasks.flatMap((task) =>
    (task.tools ?? []).filter((name) => !byName.has(name)).map((name) => `${task.id}: ${name}`),
  );
  if (missing.length > 0) throw new SuiteError(`tasks name tools the tools module does not export: ${missing.slice(0, 5).join(", ")}`);
  const toolsOf = (names: string[] | undefined) => (names === undefined ? options.tools : names.map((name) => byName.get(name)!));
  const records: TrialRecord[] = new Array(jobs.length);
  const cacheStore = options.planCache ? (options.store ?? memoryStore()) : undefined;
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < jobs.length; index = next++) {
      const { task, strategy, model, trial } = jobs[index]!;
      const runId = `${benchId}~${task.id}~${strategy}~${model.name}~${trial}`;
      const result = await runStrategy(strategy, {
        task: task.task,
        model: model.model,
        ...(model.planner === undefined ? {} : { planner: model.planner }),
        tools: toolsOf(task.tools),
        runId,
        taskType: options.suite.name,
        ...(options.budget ? { budget: options.budget } : {}),
        ...(options.store ? { store: options.store } : {}),
        ...(cacheStore ? { planCache: { key: `${benchId} ${model.name} ${task.id}`, store: cacheStore } } : {}),
      });
      const { passed, score } = await scoreRun(task, result, options.scorers, model.model);
      records[index] = {
        task: task.id,
        strategy,
        model: model.name,
        trial,
        runId: result.runId,
        status: result.status,
        passed,
        score,
        ...(result.output === undefined ? {} : { output: result.output }),
        ...(result.reason === undefined ? {} : { reason: result.reason }),
        durationMs: result.durationMs,
        usage: result.usage,
        replans: result.replans,
        repairs: result.trace.filter((event) => event.type === "plan-invalid").length,
        ...(result.limit === undefined ? {} : { limit: result.limit }),
        ...(result.provenance
          ? { claims: { claims: result.provenance.counts.claims, unsupported: result.provenance.counts.unsupported } }
          : {}),
        ...(task.plan === undefined ? {} : { scorecard: planScorecard(task.plan, result) }),
      };
      done += 1;
      options.onRecord?.(records[index]!, done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, jobs.length)) }, worker));
  return records;
}
