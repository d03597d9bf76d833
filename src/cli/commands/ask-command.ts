import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { Tool } from "../../core/tools/define-tool.js";
import { runStrategy, strategyNames, strategyOfState, type SharedStrategyOptions } from "../../strategies/run-strategy.js";
import type { StrategyName, StrategyResult } from "../../strategies/strategy-result.js";
import { CliError } from "../cli-error.js";
import type { ContextPolicy } from "../../react/context-window.js";
import { groundingLines, unsupportedClaimsExit } from "../grounding-lines.js";
import { groundingChoices, groundingMark, groundingOption } from "../../grounding/grounding-gate.js";
import type { CliIo } from "../cli-io.js";
import { modelArguments, modelFromFlags, type ModelFlags } from "../model-option.js";
import { onInterrupt } from "../interrupt.js";
import {
  leaseFromFlags,
  pauseOptions,
  resumeFromFlags,
  savePaused,
  settleResumedFile,
  statePathOf,
  type PauseFlags,
} from "../pause-resume.js";
import { createProgress } from "../progress.js";
import { loadTools } from "../load-tools.js";
import { defaultStore, openRunStore, storeFlag } from "../store-option.js";
import { recordLaunch } from "../stored-runs.js";
import { strategyEntries } from "../../strategies/durable-strategy.js";
import { toolsModuleShape } from "../tools-shape.js";

interface AskFlags extends ModelFlags, PauseFlags {
  taskType?: string;
  store: string | false;
  tools?: string;
  strategy?: string;
  json?: boolean;
  events?: string;
  replanEarly?: boolean;
  reviewPlan?: boolean;
  planCache?: boolean;
  contextTokens?: string;
  contextKeep?: string;
  grounding?: string;
  /** Set by planloop serve for a schedule's run: `{"name":…,"fireAt":…}`. */
  scheduleFire?: string;
}

export function askCommand(program: Command, io: CliIo): void {
  const ask = program
    .command("ask")
    .argument("<task>", "what to do, in words")
    .option("--tools <module>", toolsModuleShape)
    .option("--strategy <name>", `${strategyNames.join(", ")}, or all (side by side); default plan-and-execute`)
    .option("--model <spec>", "the model: openai:<name>, <name> with --base-url, or a module exporting a model (./model.mjs)")
    .option("--base-url <url>", "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--requests-per-minute <n>", "the provider's limit: at most n requests a minute, spaced evenly (docs/limits.md)")
    .option("--tokens-per-minute <n>", "the provider's limit: at most n tokens (prompt and answer) a minute (docs/limits.md)")
    .option("--concurrent-requests <n>", "the provider's limit: at most n requests at once in this process")
    .option(
      "--limits-shared <sqlite:path|postgres://…|redis://…>",
      "keep the provider's limit there, shared with every process given the same",
    )
    .option("--limits-shared-env <name>", "the same, read from this environment variable (a URL with a password stays out of ps)")
    .option("--events <file>", "write the run's events as JSONL (for planloop trace); one strategy only")
    .option("--replan-early", "plan-and-execute replans while independent steps still run")
    .option("--plan-cache", "plan-and-execute reuses the plan that last succeeded for this task from the store (no planner call)")
    .option("--context-tokens <n>", "keep each request of a ReAct loop (and of agent steps) under n tokens")
    .option(
      "--context-keep <how>",
      "with --context-tokens: recent (leave older turns out) or summarize (fold them into a summary)",
      "recent",
    )
    .option(
      "--review-plan",
      "stop before each new plan runs, until you approve it (--approve plan:<v>), deny it with a reason, or give an edited one",
    )
    .addOption(
      new Option(
        "--grounding <policy>",
        "check the answer's figures against the steps: flag (default; exit 4 when a completed answer has unsupported claims), repair, strict, or off",
      ).choices([...groundingChoices]),
    )
    .option("--json", "print the whole result as JSON")
    .option("--task-type <type>", "the kind of task, for planloop runs stats")
    .option("--store <sqlite:path|postgres://…>", "keep the run here (one strategy); continue with planloop runs resume <id>", defaultStore)
    .option("--no-store", "keep the run in memory only")
    .option("--run-id <id>", "the run's id in the store (default: a new one, printed); an unfinished run's id continues it")
    // How planloop serve starts a schedule's run: kept as the run's origin. Not for people, so not in --help.
    .addOption(new Option("--schedule-fire <json>").hideHelp());
  pauseOptions(ask, "planloop-<strategy>.state.json").action(async (task: string, flags: AskFlags) => {
    const { finished, ...resumed } = resumeFromFlags(flags);
    if (finished !== undefined) {
      io.out(finished);
      return;
    }
    const names = strategiesOf(flags.strategy, resumed.resume);
    if (names.length > 1 && (flags.events || flags.state)) throw new CliError("--events and --state go with one strategy, not all");
    // The offline model knows only its own demo and bench tasks: a task of yours needs a real one.
    const model = await modelFromFlags(flags);
    if (!model) throw new CliError("ask needs a model: --model openai:<name>, --base-url <url> --model <name>, or --model ./model.mjs");
    const tools: Tool[] = flags.tools ? await loadTools(flags.tools) : [];
    const results: StrategyResult[] = [];
    // One strategy is kept in the store; `all` runs side by side in memory.
    const store = names.length > 1 ? undefined : await openRunStore(io, flags.store);
    const launchLine = [
      "ask",
      task,
      "--strategy",
      names[0]!,
      ...modelArguments(flags),
      ...(flags.tools ? ["--tools", resolve(flags.tools)] : []),
      ...(flags.replanEarly ? ["--replan-early"] : []),
      ...(flags.reviewPlan ? ["--review-plan"] : []),
      ...(flags.planCache ? ["--plan-cache"] : []),
      ...(flags.contextTokens ? ["--context-tokens", flags.contextTokens, "--context-keep", flags.contextKeep ?? "recent"] : []),
      ...(flags.taskType ? ["--task-type", flags.taskType] : []),
      ...(flags.grounding ? ["--grounding", flags.grounding] : []),
    ];
    const runId =
      store === undefined
        ? undefined
        : await recordLaunch(store, {
            runId: flags.runId,
            scheduleFire: flags.scheduleFire,
            entry: strategyEntries[names[0]!],
            lease: leaseFromFlags(flags),
            argv: launchLine,
          });
    const interrupt = onInterrupt();
    for (const name of names) {
      if (interrupt.interrupted()) break;
      const progress = names.length === 1 && !flags.json ? createProgress(io.stdout) : undefined;
      const result = await runStrategy(name, {
        task,
        model,
        tools,
        signal: interrupt.signal,
        ...(progress ? { onEvent: progress.listener } : {}),
        ...(flags.replanEarly ? { replanEarly: true } : {}),
        ...(flags.reviewPlan ? { reviewPlan: true } : {}),
        ...(flags.planCache ? { planCache: true } : {}),
        ...contextOf(flags),
        ...(flags.taskType ? { taskType: flags.taskType } : {}),
        ...groundingOption(flags.grounding),
        ...(resumed as Pick<SharedStrategyOptions, "resume" | "approvals" | "answers">),
        ...(store ? { store, runId, lease: leaseFromFlags(flags, runId) } : {}),
      });
      progress?.stop();
      settleResumedFile(flags, result);
      if (flags.events) writeFileSync(flags.events, result.trace.map((event) => JSON.stringify(event)).join("\n") + "\n");
      results.push(result);
    }
    await store?.close();
    if (store && runId) (flags.json ? io.err : io.out)(`run ${runId} (planloop runs show ${runId}${storeFlag(flags.store)})`);
    if (flags.json) io.out(JSON.stringify(names.length === 1 ? results[0] : results, null, 2));
    else for (const result of results) io.out(summary(result));
    const asked = flags.tools ? [] : toolsAskedFor(results);
    if (asked.length > 0)
      io.err(
        `planloop: the model asked for ${asked.map((name) => `"${name}"`).join(", ")}, but this run had no tools: ` +
          "give them with --tools ./tools.mjs (a module that exports tools made with defineTool)",
      );
    for (const result of results) {
      if ((result.status !== "waiting" && !interrupt.interrupted()) || !result.state) continue;
      const command = [
        "planloop ask",
        JSON.stringify(task),
        ...modelArguments(flags),
        ...(flags.tools ? ["--tools", flags.tools] : []),
        ...(flags.reviewPlan ? ["--review-plan"] : []),
        ...(flags.contextTokens ? ["--context-tokens", flags.contextTokens, "--context-keep", flags.contextKeep ?? "recent"] : []),
        ...(flags.grounding ? ["--grounding", flags.grounding] : []),
      ].join(" ");
      savePaused(io, {
        state: result.state,
        pending: result.pending ?? [],
        statePath: statePathOf(flags, `planloop-${result.strategy}.state.json`),
        command,
        ...(store ? { runId: result.runId, storeFlag: storeFlag(flags.store), launch: launchLine } : {}),
      });
    }
    interrupt.dispose();
    io.exitCode(interrupt.interrupted() ? 130 : exitCode(results));
  });
}

/** The strategies to run: the one a resumed state came from, or the flag's (default plan-and-execute). */
function strategiesOf(value: string | undefined, resume: unknown): StrategyName[] {
  if (resume !== undefined) {
    const saved = strategyOfState(resume);
    if (!saved) throw new CliError("--resume: the file is not a state saved by planloop ask");
    if (value !== undefined && value !== saved) throw new CliError(`--resume: the state comes from ${saved}, not ${value}`);
    return [saved];
  }
  const name = value ?? "plan-and-execute";
  if (name === "all") return [...strategyNames];
  if (!strategyNames.includes(name as StrategyName))
    throw new CliError(`unknown strategy "${name}"; use ${strategyNames.join(", ")} or all`);
  return [name as StrategyName];
}

/** "plan-and-execute: completed — 2 model calls, 3 tool calls, 1,234 tokens, 2.1 s", then the answer. */
function summary(result: StrategyResult): string {
  const { usage } = result;
  const mark = groundingMark(result);
  // A completed answer with unsupported claims says so where a pipeline's reader looks first.
  const flagged = mark === undefined ? "" : `, ${mark.unsupported} of ${mark.claims} claims unsupported`;
  const lines = [
    `${result.strategy}: ${result.status}${flagged}${result.reason ? ` (${result.reason})` : ""} — ${usage.modelCalls} model calls, ` +
      `${usage.toolCalls} tool calls, ${(usage.inputTokens + usage.outputTokens).toLocaleString("en-US")} tokens, ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (result.output !== undefined) lines.push(result.output);
  lines.push(...groundingLines(result.provenance));
  return `${lines.join("\n")}\n`;
}

/** The tools a model called, or a plan named, that the run did not have. */
function toolsAskedFor(results: readonly StrategyResult[]): string[] {
  const names = new Set<string>();
  for (const result of results)
    for (const event of result.trace) {
      if (event.type === "tool-call-end" && event.error?.kind === "unknown_tool") names.add(event.name);
      if (event.type === "plan-invalid") for (const name of event.unknownTools ?? []) names.add(name);
    }
  return [...names];
}

/**
 * 0 when every run completed with every claim supported, 4 when one completed with claims its
 * steps do not support (docs/grounded-reports.md), 3 when one waits for a human, 1 otherwise.
 */
function exitCode(results: readonly StrategyResult[]): number {
  if (results.every((result) => result.status === "completed"))
    return results.some((result) => groundingMark(result) !== undefined) ? unsupportedClaimsExit : 0;
  return results.some((result) => result.status === "waiting") ? 3 : 1;
}

/** `--context-tokens` and `--context-keep` as a context policy (checked by the loop). */
function contextOf(flags: AskFlags): { context?: ContextPolicy } {
  if (flags.contextTokens === undefined) return {};
  const maxTokens = Number(flags.contextTokens);
  if (!Number.isInteger(maxTokens)) throw new CliError(`--context-tokens takes a whole number, got "${flags.contextTokens}"`);
  if (flags.contextKeep !== "recent" && flags.contextKeep !== "summarize")
    throw new CliError(`--context-keep takes recent or summarize, got "${String(flags.contextKeep)}"`);
  return { context: { maxTokens, keep: flags.contextKeep } };
}
