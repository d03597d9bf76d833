import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { benchHtml, benchMarkdown, statsTable, targetLines } from "../../evals/bench-report.js";
import { strategyStats } from "../../evals/bench-stats.js";
import { loadSuite, suiteNames } from "../../evals/load-suites.js";
import { runBuiltInBench } from "../../evals/built-in-bench.js";
import { strategyNames } from "../../strategies/run-strategy.js";
import type { StrategyName } from "../../strategies/strategy-result.js";
import { CliError } from "../cli-error.js";
import { modelFromFlags, type ModelFlags } from "../model-option.js";
import type { CliIo } from "../cli-io.js";
import { defaultStore } from "../default-store.js";
import { benchSuiteFile, isSuiteFile, type SuiteBenchFlags } from "./suite-bench.js";

interface BenchFlags extends Omit<ModelFlags, "model">, Omit<SuiteBenchFlags, "suite"> {
  /** Every --model given, in order. */
  model?: string[];
  planner?: string;
  suite: string;
  trials?: string;
  strategies: string;
  runs: string;
  concurrency: string;
  out: string;
  modelLatency: string;
  latencyScale: string;
  replanEarly?: boolean;
  structuredPlans?: boolean;
}

export function benchCommand(program: Command, io: CliIo): void {
  program
    .command("bench")
    .option(
      "--suite <names>",
      `suites, comma-separated: ${suiteNames.join(", ")}, or all; or a file of your own tasks (.json / .jsonl)`,
      "all",
    )
    .option("--tools <module>", "with a suite file: the module exporting the tools its tasks use")
    .option("--scorers <module>", 'with a suite file: a module exporting scorer functions, named by { "scorer": "<name>" }')
    .option("--trials <n>", "with a suite file: runs of every task and strategy (pass^k, pass@k); same as --runs")
    .option("--store <url>", "with a suite file: where every run is kept", defaultStore)
    .option("--no-store", "with a suite file: keep the runs in memory only")
    .option("--plan-cache", "with a suite file: plan-and-execute reuses a task's plan that succeeded in its later trials")
    .option("--record <file>", "with a suite file: keep every tool call and its output in this cassette")
    .option("--replay <file>", "with a suite file: answer tool calls from this cassette; no tool runs")
    .option("--replay-miss <what>", "a call the cassette does not hold: error (default) or run it for real")
    .option("--baseline <results.json>", "with a suite file: exit 1, naming the tasks, when success falls below this earlier run's")
    .option("--max-drop <points>", "how far success may fall below the baseline's (0.05: five points)", "0")
    .option("--max-cost-rise <ratio>", "how many times the baseline's cost per run may be spent (1.2)")
    .option("--max-p95-rise <ratio>", "how many times the baseline's p95 latency may be taken")
    .option(
      "--baseline-column <column>",
      'the baseline\'s column to compare with: "<strategy> on <model>" as its report names it, or a model of the baseline (each strategy on it)',
    )
    .option("--strategies <names>", "strategies, comma-separated", strategyNames.join(","))
    .option(
      "--model <spec>",
      "a real model: openai:<name>, <name> with --base-url, or a module exporting a model (default: the offline model); with a suite file, again for more columns",
      (spec: string, specs: string[] | undefined) => [...(specs ?? []), spec],
    )
    .option("--planner <spec>", "with a suite file: the model the planning strategies plan with (tiers); --model runs the steps")
    .option("--base-url <url>", "an OpenAI-compatible server")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--runs <n>", "runs of every task and strategy", "1")
    .option("--concurrency <n>", "runs at the same time", "4")
    .option("--out <dir>", "where to write report.md, report.html and results.json", "bench-results")
    .option("--model-latency <ms>", "the offline model's time per call", "300")
    .option("--latency-scale <x>", "multiplies the simulated services' latency", "1")
    .option("--replan-early", "plan-and-execute replans while independent steps still run")
    .option(
      "--no-structured-plans",
      "plan-and-execute asks for plans as text only (compare repair rounds with and without structured output)",
    )
    .action(async (flags: BenchFlags) => {
      const suites = isSuiteFile(flags.suite)
        ? []
        : (flags.suite === "all" ? [...suiteNames] : flags.suite.split(",")).map((name) => loadSuite(name.trim()));
      const strategies = flags.strategies.split(",").map((name) => name.trim()) as StrategyName[];
      const unknown = strategies.filter((name) => !strategyNames.includes(name));
      if (unknown.length > 0) throw new CliError(`unknown strategies: ${unknown.join(", ")}; use ${strategyNames.join(", ")}`);
      const specs = flags.model ?? [];
      const bar = progressBar(io);
      if (isSuiteFile(flags.suite)) {
        if (specs.length === 0)
          throw new CliError(
            "a suite of your own needs a model: --model openai:<name>, --base-url <url> --model <name>, or --model ./model.mjs",
          );
        // Tiers: with --planner, the planning strategies plan with it and each --model runs the steps.
        const planner = flags.planner === undefined ? undefined : await modelFromFlags({ ...modelFlags(flags), model: flags.planner });
        const models = await Promise.all(
          specs.map(async (spec) => ({
            name: flags.planner === undefined ? spec : `${spec} (planner ${flags.planner})`,
            model: (await modelFromFlags({ ...modelFlags(flags), model: spec }))!,
            ...(planner === undefined ? {} : { planner }),
          })),
        );
        const trials = whole(flags.trials ?? flags.runs, flags.trials ? "--trials" : "--runs");
        const concurrency = whole(flags.concurrency, "--concurrency");
        await benchSuiteFile(io, flags, { strategies, models, trials, concurrency, onRecord: bar });
        return;
      }
      if (specs.length > 1) throw new CliError("the built-in suites take one --model; several make columns with a suite file of your own");
      const model = await modelFromFlags({ ...modelFlags(flags), ...(specs[0] === undefined ? {} : { model: specs[0] }) });
      const label = model ? (specs[0] ?? "model") : "planloop offline model";
      const records = await runBuiltInBench({
        suites,
        strategies,
        ...(model ? { model } : {}),
        runs: whole(flags.runs, "--runs"),
        concurrency: whole(flags.concurrency, "--concurrency"),
        modelLatencyMs: number(flags.modelLatency, "--model-latency"),
        latencyScale: number(flags.latencyScale, "--latency-scale"),
        ...(flags.replanEarly ? { replanEarly: true } : {}),
        ...(flags.structuredPlans === false ? { structuredPlans: false } : {}),
        onRecord: (_record, done, total) => bar(done, total),
      });
      const out = resolve(flags.out);
      mkdirSync(out, { recursive: true });
      const options = { model: label, offline: !model };
      writeFileSync(join(out, "report.md"), benchMarkdown(records, options));
      writeFileSync(join(out, "report.html"), benchHtml(records, options));
      writeFileSync(join(out, "results.json"), JSON.stringify(records, null, 1));
      for (const suite of suites)
        io.out(`\n${suite.name}\n${statsTable(strategyStats(records.filter((record) => record.suite === suite.name)))}`);
      for (const line of targetLines(records)) io.out(line);
      if (!model) io.out("\nOffline numbers measure orchestration cost, not model quality.");
      io.out(`\nreport: ${join(out, "report.md")}\npage:   ${join(out, "report.html")}`);
    });
}

/** A bar redrawn in place on a terminal, a line every tenth of the way otherwise. */
function progressBar(io: CliIo): (done: number, total: number) => void {
  let lastTenth = -1;
  return (done, total) => {
    const filled = Math.round((done / total) * 30);
    const text = `[${"#".repeat(filled)}${"-".repeat(30 - filled)}] ${done}/${total} runs`;
    if (io.stdout.isTTY) {
      io.stdout.write(`\r${text}${done === total ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor((done / total) * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      io.out(text);
    }
  };
}

function number(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new CliError(`${flag} must be a number >= 0`);
  return parsed;
}

function whole(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new CliError(`${flag} must be a whole number >= 1`);
  return parsed;
}

/** The flags a model is made from, less --model (a list here). */
function modelFlags(flags: BenchFlags): ModelFlags {
  return {
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    ...(flags.apiKeyEnv === undefined ? {} : { apiKeyEnv: flags.apiKeyEnv }),
  };
}
