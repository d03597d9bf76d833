import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { runDemo } from "../../demo/run-demo.js";
import { CliError } from "../cli-error.js";
import { modelArguments, modelFromFlags, type ModelFlags } from "../model-option.js";
import { defaultStore, openRunStore, storeFlag } from "../store-option.js";
import { recordLaunch } from "../stored-runs.js";
import { strategyEntries } from "../../strategies/durable-strategy.js";
import { onInterrupt } from "../interrupt.js";
import { createProgress } from "../progress.js";
import type { CliIo } from "../cli-io.js";
import { groundingLines } from "../grounding-lines.js";

export function demoCommand(program: Command, io: CliIo): void {
  program
    .command("demo")
    .option("--dir <folder>", "where to write the database, report, events and trace (default: a new temp folder)")
    .option("--model <spec>", "a real model: openai:<name>, <name> with --base-url, or a module exporting a model (./model.mjs)")
    .option("--base-url <url>", "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama")
    .option("--api-key-env <name>", "the environment variable holding the API key", "OPENAI_API_KEY")
    .option("--latency <ms>", "the offline model's thinking time per call", "300")
    .option("--query-latency <ms>", "each SQL query's simulated round trip", "200")
    .option("--store <sqlite:path|postgres://…>", "keep the run here; continue with planloop runs resume <id>", defaultStore)
    .option("--no-store", "keep the run in memory only")
    .option("--run-id <id>", "the run's id in the store (default: a new one, printed); an unfinished run's id continues it")
    .option("--wrong-figure", "plant a wrong revenue figure in the offline solver's answer, to see grounding flag it")
    .action(async (flags: DemoFlags) => {
      const model = await modelFromFlags(flags);
      const dir = flags.dir ? resolve(flags.dir) : mkdtempSync(join(tmpdir(), "planloop-demo-"));
      const latencies = ["--latency", flags.latency, "--query-latency", flags.queryLatency];
      const store = await openRunStore(io, flags.store);
      const runId =
        store &&
        (await recordLaunch(store, {
          runId: flags.runId,
          entry: strategyEntries["plan-and-execute"],
          argv: ["demo", "--dir", dir, ...modelArguments(flags), ...latencies],
        }));
      // Said once, before the live display starts, so it does not break the display's redraws.
      io.out(
        model
          ? `planloop demo with ${flags.model}`
          : "planloop demo with the OFFLINE model: no network, deterministic answers for planloop's own demo (pass --model to use a real one)",
      );
      const progress = createProgress(io.stdout);
      const interrupt = onInterrupt();
      const { result, files } = await runDemo({
        signal: interrupt.signal,
        dir,
        ...(model ? { model } : {}),
        latencyMs: milliseconds(flags.latency, "--latency"),
        queryLatencyMs: milliseconds(flags.queryLatency, "--query-latency"),
        onEvent: progress.listener,
        onNotice: () => {},
        ...(store ? { store, runId } : {}),
        ...(flags.wrongFigure ? { plantWrongFigure: true } : {}),
      }).finally(() => {
        interrupt.dispose();
        void store?.close();
      });
      progress.stop();
      io.out(
        `\n${result.status}: ${result.replans} replans, ${result.usage.modelCalls} model calls, ${result.usage.toolCalls} tool calls, ${result.usage.inputTokens + result.usage.outputTokens} tokens`,
      );
      if (result.reason) io.out(`reason: ${result.reason}`);
      for (const line of groundingLines(result.provenance)) io.out(line);
      io.out(`report:   ${files.report}\nevents:   ${files.events}\ntrace:    ${files.trace}\ndatabase: ${files.database}`);
      if (runId) io.out(`run:      ${runId} (planloop runs show ${runId}${storeFlag(flags.store)})`);
      io.exitCode(interrupt.interrupted() ? 130 : result.status === "completed" ? 0 : 1);
    });
}

interface DemoFlags extends ModelFlags {
  dir?: string;
  latency: string;
  queryLatency: string;
  store: string | false;
  runId?: string;
  wrongFigure?: boolean;
}

function milliseconds(value: string, flag: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) throw new CliError(`${flag} must be a number of milliseconds >= 0`);
  return ms;
}
