import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Model } from "../../core/model.js";
import { runBench } from "../../evals/run-bench.js";
import type { Scorer } from "../../evals/scorers.js";
import { scorecardTable, suiteTable, taskSuiteStats } from "../../evals/task-suite-stats.js";
import { suiteHtml, suiteMarkdown } from "../../evals/suite-report.js";
import { readTaskSuite, SuiteError } from "../../evals/task-suite.js";
import type { StrategyName } from "../../strategies/strategy-result.js";
import { baselinePairs, gateAgainstBaseline, type GateOptions, type SuiteResults } from "../../evals/baseline-gate.js";
import {
  emptyCassette,
  readCassette,
  recordingTools,
  replayingTools,
  writeCassette,
  type ToolCassette,
} from "../../evals/tool-cassette.js";
import type { Tool } from "../../core/tools/define-tool.js";
import { CliError, readJsonFile } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { importUserModule, loadTools } from "../load-tools.js";

export interface SuiteBenchFlags {
  suite: string;
  tools?: string;
  scorers?: string;
  out: string;
  store: string | false;
  record?: string;
  replay?: string;
  replayMiss?: string;
  baseline?: string;
  maxDrop?: string;
  maxCostRise?: string;
  maxP95Rise?: string;
  baselineColumn?: string;
  planCache?: boolean;
}

/** `--suite` names a file of the user's own (a path, or a .json / .jsonl name), not a built-in suite. */
export function isSuiteFile(suite: string): boolean {
  return /\.jsonl?$/.test(suite) || suite.includes("/") || existsSync(suite);
}

/**
 * `planloop bench --suite ./tasks.jsonl --tools ./tools.mjs`: every task × strategy × trial on
 * the model given, each run kept in the store under the bench run's id, the table printed, and
 * results.json written.
 */
export async function benchSuiteFile(
  io: CliIo,
  flags: SuiteBenchFlags,
  run: {
    strategies: StrategyName[];
    models: Array<{ name: string; model: Model; planner?: Model }>;
    trials: number;
    concurrency: number;
    onRecord: (done: number, total: number) => void;
  },
): Promise<void> {
  let suite;
  try {
    suite = readTaskSuite(flags.suite);
  } catch (error) {
    if (error instanceof SuiteError) throw new CliError(error.message);
    throw error;
  }
  const loaded = flags.tools ? await loadTools(flags.tools) : [];
  const { tools, cassette } = recordedOrReplayed(loaded, flags);
  const baseline = flags.baseline === undefined ? undefined : readBaseline(flags.baseline);
  const limits = gateLimits(flags);
  const scorers = flags.scorers ? await loadScorers(flags.scorers) : {};
  // Loaded here: the other commands' help needs no store.
  const { openRunStore } = await import("../store-option.js");
  const store = await openRunStore(io, flags.store);
  const benchId = `bench-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, "")
    .slice(0, 14)}`;
  try {
    const records = await runBench({
      suite,
      tools,
      strategies: run.strategies,
      models: run.models,
      trials: run.trials,
      concurrency: run.concurrency,
      scorers,
      benchId,
      ...(flags.planCache ? { planCache: true } : {}),
      ...(store ? { store } : {}),
      onRecord: (_record, done, total) => run.onRecord(done, total),
    }).catch((error: unknown) => {
      throw error instanceof SuiteError ? new CliError(error.message) : error;
    });
    const stats = taskSuiteStats(records);
    const out = resolve(flags.out);
    mkdirSync(out, { recursive: true });
    const report = { benchId, suite: suite.name, stats, records };
    writeFileSync(join(out, "results.json"), JSON.stringify(report, null, 1));
    writeFileSync(join(out, "report.md"), suiteMarkdown(report));
    writeFileSync(join(out, "report.html"), suiteHtml(report));
    io.out(
      `\n${suite.name}: ${suite.tasks.length} tasks × ${run.strategies.length} strategies × ${run.models.length} models × ${run.trials} trials\n${suiteTable(stats)}`,
    );
    const scorecards = scorecardTable(records);
    if (scorecards) io.out(`\nplan scorecards (tasks with a gold plan, mean over trials)\n${scorecards}`);
    const failing = [...new Set(records.filter((record) => !record.passed).map((record) => record.task))];
    if (failing.length > 0) io.out(`\ntasks that failed at least once: ${failing.join(", ")}`);
    io.out(
      `\nreport: ${join(out, "report.md")}\npage:   ${join(out, "report.html")}\nresults: ${join(out, "results.json")}${store ? `\nruns: planloop runs list (ids start with ${benchId})` : ""}`,
    );
    if (cassette && flags.record) {
      writeCassette(flags.record, cassette);
      io.out(`tool calls recorded: ${flags.record} (${Object.keys(cassette.calls).length} distinct calls)`);
    }
    if (baseline) {
      const problems = gateAgainstBaseline({ stats, records }, baseline, limits);
      for (const problem of problems) io.out(`below the baseline: ${problem}`);
      if (problems.length > 0) io.exitCode(1);
      else {
        const pairs = baselinePairs({ stats, records }, baseline, limits);
        const compared = pairs.map(
          (pair) => `${pair.current.strategy} on ${pair.current.model} with ${pair.baseline.strategy} on ${pair.baseline.model}`,
        );
        io.out(`the baseline ${flags.baseline} holds (compared ${compared.join("; ")})`);
      }
    }
  } finally {
    await store?.close();
  }
}

async function loadScorers(path: string): Promise<Record<string, Scorer>> {
  const exports = await importUserModule(path, "scorers");
  const scorers = Object.fromEntries(Object.entries(exports).filter(([, value]) => typeof value === "function")) as Record<string, Scorer>;
  if (Object.keys(scorers).length === 0) throw new CliError(`${path} exports no scorer functions`);
  return scorers;
}

/** The tools as given, recording every call into a new cassette, or answered from one. */
function recordedOrReplayed(tools: Tool[], flags: SuiteBenchFlags): { tools: Tool[]; cassette?: ToolCassette } {
  if (flags.record && flags.replay) throw new CliError("--record and --replay: one or the other (record once, replay after)");
  if (flags.replayMiss !== undefined && flags.replayMiss !== "error" && flags.replayMiss !== "run")
    throw new CliError(`--replay-miss takes error or run, not ${flags.replayMiss}`);
  if (flags.replay) {
    let cassette: ToolCassette;
    try {
      cassette = readCassette(flags.replay);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    return { tools: replayingTools(tools, cassette, { miss: flags.replayMiss === "run" ? "run" : "error" }) };
  }
  if (flags.record) {
    const cassette = emptyCassette();
    return { tools: recordingTools(tools, cassette), cassette };
  }
  return { tools };
}

function readBaseline(path: string): SuiteResults {
  const read = readJsonFile(path, "the baseline") as Partial<SuiteResults> | null;
  if (!Array.isArray(read?.stats) || !Array.isArray(read.records))
    throw new CliError(`the baseline ${path} is not a results.json of planloop bench --suite`);
  return read as SuiteResults;
}

function gateLimits(flags: SuiteBenchFlags): GateOptions {
  const ratio = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new CliError(`${flag} must be a number >= 0`);
    return parsed;
  };
  const maxDrop = ratio(flags.maxDrop, "--max-drop");
  const maxCostRise = ratio(flags.maxCostRise, "--max-cost-rise");
  const maxP95Rise = ratio(flags.maxP95Rise, "--max-p95-rise");
  return {
    ...(maxDrop === undefined ? {} : { maxDrop }),
    ...(maxCostRise === undefined ? {} : { maxCostRise }),
    ...(maxP95Rise === undefined ? {} : { maxP95Rise }),
    ...(flags.baselineColumn === undefined ? {} : { baselineColumn: flags.baselineColumn }),
  };
}
