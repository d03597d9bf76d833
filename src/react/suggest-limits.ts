import { InvalidOptionsError } from "../core/errors.js";

/** Spread of a measure over the successful runs of a task type. */
export interface Spread {
  p50: number;
  /** At the percentile asked for (95 by default). */
  high: number;
  max: number;
}

/** What the runs of one task type say about its step limit (seed 001 §4). */
export interface LimitSuggestion {
  /** The runs' `taskType`; "(none)" for runs given none. */
  taskType: string;
  runs: number;
  succeeded: number;
  successRate: number;
  /** Model calls of the successful runs. */
  steps: Spread;
  /** Tool calls of the successful runs. */
  toolCalls: Spread;
  /** Mean cost of a run, successful or not, in USD. */
  costPerRun: number;
  /** `maxSteps` to try; undefined when no run succeeded. */
  suggestedMaxSteps: number | undefined;
  /** How the suggestion was made. */
  rule: string;
  /** For each candidate limit, how many recorded successful runs it would have cut off. */
  cutOff: Array<{ limit: number; successfulRunsCut: number }>;
}

type Summary = { taskType: string; ok: boolean; modelCalls: number; toolCalls: number; costUsd: number };

/**
 * Step limits from the traces of successful runs, per task type (seed 001 §4: "if the P95 of
 * successful tasks is 12 steps, try a limit of 20, then check success rate and cost per
 * task"). Takes run results (`runAgent`, any strategy), stored runs (`store.getRun`: a run
 * that stopped unfinished counts by its saved state), or events (`agent-end`, `strategy-end`,
 * as in an events JSONL file); anything else is skipped.
 *
 * @example
 * const [reports] = suggestLimits(results.filter((r) => r.taskType === "weekly-report"));
 * console.log(reports.suggestedMaxSteps, reports.rule);
 */
export function suggestLimits(runs: Iterable<unknown>, options: { percentile?: number } = {}): LimitSuggestion[] {
  const percentile = options.percentile ?? 95;
  if (typeof percentile !== "number" || !(percentile > 0 && percentile <= 100))
    throw new InvalidOptionsError("percentile must be in (0, 100]");
  const byType = new Map<string, Summary[]>();
  for (const run of runs) {
    const summary = summaryOf(run);
    if (summary === undefined) continue;
    const list = byType.get(summary.taskType) ?? [];
    list.push(summary);
    byType.set(summary.taskType, list);
  }
  return [...byType].sort(([a], [b]) => (a < b ? -1 : 1)).map(([taskType, summaries]) => suggestionFor(taskType, summaries, percentile));
}

function suggestionFor(taskType: string, summaries: Summary[], percentile: number): LimitSuggestion {
  const successful = summaries.filter((run) => run.ok);
  const steps = spreadOf(
    successful.map((run) => run.modelCalls),
    percentile,
  );
  const suggested = successful.length === 0 ? undefined : Math.ceil((steps.high * 5) / 3);
  const candidates = [...new Set([steps.p50, steps.high, ...(suggested === undefined ? [] : [suggested]), steps.max])].sort(
    (a, b) => a - b,
  );
  return {
    taskType,
    runs: summaries.length,
    succeeded: successful.length,
    successRate: successful.length / summaries.length,
    steps,
    toolCalls: spreadOf(
      successful.map((run) => run.toolCalls),
      percentile,
    ),
    costPerRun: summaries.reduce((sum, run) => sum + run.costUsd, 0) / summaries.length,
    suggestedMaxSteps: suggested,
    rule:
      suggested === undefined
        ? "no run of this type succeeded: nothing to learn a limit from"
        : `maxSteps = ceil(P${percentile} x 5/3) of the successful runs' model calls (the seed's example: P95 12 -> 20); then check the success rate and the cost per run`,
    cutOff:
      successful.length === 0
        ? []
        : candidates.map((limit) => ({ limit, successfulRunsCut: successful.filter((run) => run.modelCalls > limit).length })),
  };
}

/** Nearest rank: the smallest value with at least `percentile` % of the values at or below it. */
function spreadOf(values: number[], percentile: number): Spread {
  if (values.length === 0) return { p50: 0, high: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: rank(50), high: rank(percentile), max: sorted.at(-1)! };
}

/** A run result, a stored run (its result), or an end event, as the few numbers that count here. */
function summaryOf(value: unknown): Summary | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const source = value as { journal?: unknown; result?: unknown; type?: unknown };
  const run = (Array.isArray(source.journal) ? (source.result ?? stoppedState(source.journal)) : value) as
    | { status?: unknown; usage?: { modelCalls?: unknown; toolCalls?: unknown; costUsd?: unknown }; taskType?: unknown; type?: unknown }
    | undefined;
  if (run === undefined || run === null || typeof run.status !== "string" || typeof run.usage !== "object" || run.usage === null)
    return undefined;
  if (run.type !== undefined && run.type !== "agent-end" && run.type !== "strategy-end") return undefined;
  const number = (field: unknown) => (typeof field === "number" && Number.isFinite(field) ? field : 0);
  return {
    taskType: typeof run.taskType === "string" ? run.taskType : "(none)",
    ok: run.status === "completed",
    modelCalls: number(run.usage.modelCalls),
    toolCalls: number(run.usage.toolCalls),
    costUsd: number(run.usage.costUsd),
  };
}

/**
 * A stored run that stopped without finishing (out of steps, waiting, cancelled) keeps its
 * state as its last entry: its status and usage. One still running has none yet.
 */
function stoppedState(journal: unknown[]): unknown {
  const last = journal.at(-1) as { kind?: unknown; state?: unknown } | undefined;
  return last?.kind === "paused" ? last.state : undefined;
}
