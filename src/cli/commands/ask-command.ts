import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { PlanloopEvent } from "../../core/events.js";
import type { Tool } from "../../core/tools/define-tool.js";
import { runStrategy, strategyNames } from "../../strategies/run-strategy.js";
import type { StrategyName, StrategyResult } from "../../strategies/strategy-result.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { modelFromFlags, type ModelFlags } from "../model-option.js";
import { pendingLine } from "../pending-calls.js";
import { createProgress } from "../progress.js";
import { loadTools } from "./plan-commands.js";

interface AskFlags extends ModelFlags {
  tools?: string;
  strategy: string;
  json?: boolean;
  events?: string;
  replanEarly?: boolean;
}

export function askCommand(program: Command, io: CliIo): void {
  program
    .command("ask")
    .description("Run a task of your own with your tools and a real model, through one strategy or all four")
    .argument("<task>", "what to do, in words")
    .option("--tools <module>", "a JavaScript module exporting the tools")
    .option("--strategy <name>", `${strategyNames.join(", ")}, or all (side by side)`, "plan-and-execute")
    .option("--model <spec>", "the model: openai:<name>, or <name> with --base-url")
    .option("--base-url <url>", "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--events <file>", "write the run's events as JSONL (for planloop trace); one strategy only")
    .option("--replan-early", "plan-and-execute replans while independent steps still run")
    .option("--json", "print the whole result as JSON")
    .action(async (task: string, flags: AskFlags) => {
      const names = strategiesOf(flags.strategy);
      if (flags.events && names.length > 1) throw new CliError("--events goes with one strategy, not all");
      // The offline model knows only its own demo and bench tasks: a task of yours needs a real one.
      const model = modelFromFlags(flags);
      if (!model) throw new CliError("ask needs a model: --model openai:<name>, or --base-url <url> --model <name>");
      const tools: Tool[] = flags.tools ? await loadTools(flags.tools) : [];
      const results: StrategyResult[] = [];
      for (const name of names) {
        const events: PlanloopEvent[] = [];
        const progress = names.length === 1 && !flags.json ? createProgress(io.stdout) : undefined;
        const result = await runStrategy(name, {
          task,
          model,
          tools,
          onEvent: (event) => {
            events.push(event);
            progress?.listener(event);
          },
          ...(flags.replanEarly ? { replanEarly: true } : {}),
        });
        progress?.stop();
        if (flags.events) writeFileSync(flags.events, events.map((event) => JSON.stringify(event)).join("\n") + "\n");
        results.push(result);
      }
      if (flags.json) io.out(JSON.stringify(names.length === 1 ? results[0] : results, null, 2));
      else for (const result of results) io.out(summary(result));
      io.exitCode(exitCode(results));
    });
}

function strategiesOf(value: string): StrategyName[] {
  if (value === "all") return [...strategyNames];
  if (!strategyNames.includes(value as StrategyName)) throw new CliError(`unknown strategy "${value}"; use ${strategyNames.join(", ")} or all`);
  return [value as StrategyName];
}

/**
 * "plan-and-execute: completed — 2 model calls, 3 tool calls, 1,234 tokens, 2.1 s", then the
 * answer, or the calls a paused run waits for.
 */
function summary(result: StrategyResult): string {
  const { usage } = result;
  const lines = [
    `${result.strategy}: ${result.status}${result.reason ? ` (${result.reason})` : ""} — ${usage.modelCalls} model calls, ` +
      `${usage.toolCalls} tool calls, ${(usage.inputTokens + usage.outputTokens).toLocaleString("en-US")} tokens, ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (result.output !== undefined) lines.push(result.output);
  for (const call of result.pending ?? []) lines.push(pendingLine(call));
  if (result.pending?.length) lines.push("  (ask does not keep paused runs: resume them from code, with the strategy's `resume` option)");
  return `${lines.join("\n")}\n`;
}

/** 0 when every run completed, 3 when one waits for a human, 1 otherwise. */
function exitCode(results: readonly StrategyResult[]): number {
  if (results.every((result) => result.status === "completed")) return 0;
  return results.some((result) => result.status === "waiting") ? 3 : 1;
}
