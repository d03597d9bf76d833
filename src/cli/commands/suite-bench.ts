import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Model } from "../../core/model.js";
import { runTaskSuite } from "../../compare/run-task-suite.js";
import type { Scorer } from "../../compare/scorers.js";
import { suiteTable, taskSuiteStats } from "../../compare/task-suite-stats.js";
import { readTaskSuite, SuiteError } from "../../compare/task-suite.js";
import type { StrategyName } from "../../strategies/strategy-result.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { loadTools } from "../load-tools.js";

export interface SuiteBenchFlags {
  suite: string;
  tools?: string;
  scorers?: string;
  out: string;
  store: string | false;
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
    model: Model;
    modelName: string;
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
  const tools = flags.tools ? await loadTools(flags.tools) : [];
  const scorers = flags.scorers ? await loadScorers(flags.scorers) : {};
  // Loaded here: the other commands' help needs no store.
  const { openRunStore } = await import("../store-option.js");
  const store = await openRunStore(io, flags.store);
  const benchId = `bench-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, "")
    .slice(0, 14)}`;
  try {
    const records = await runTaskSuite({
      suite,
      tools,
      strategies: run.strategies,
      models: [{ name: run.modelName, model: run.model }],
      trials: run.trials,
      concurrency: run.concurrency,
      scorers,
      benchId,
      ...(store ? { store } : {}),
      onRecord: (_record, done, total) => run.onRecord(done, total),
    });
    const stats = taskSuiteStats(records);
    const out = resolve(flags.out);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "results.json"), JSON.stringify({ benchId, suite: suite.name, stats, records }, null, 1));
    io.out(
      `\n${suite.name}: ${suite.tasks.length} tasks × ${run.strategies.length} strategies × ${run.trials} trials\n${suiteTable(stats)}`,
    );
    const failing = [...new Set(records.filter((record) => !record.passed).map((record) => record.task))];
    if (failing.length > 0) io.out(`\ntasks that failed at least once: ${failing.join(", ")}`);
    io.out(`\nresults: ${join(out, "results.json")}${store ? `\nruns: planloop runs list (ids start with ${benchId})` : ""}`);
  } finally {
    await store?.close();
  }
}

async function loadScorers(path: string): Promise<Record<string, Scorer>> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load scorers from ${path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const scorers = Object.fromEntries(Object.entries(exports).filter(([, value]) => typeof value === "function")) as Record<string, Scorer>;
  if (Object.keys(scorers).length === 0) throw new CliError(`${path} exports no scorer functions`);
  return scorers;
}
