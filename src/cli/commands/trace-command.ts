import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { PlanloopEvent } from "../../core/events.js";
import { renderTraceHtml } from "../../trace/trace-html.js";
import { perfettoTrace } from "../../trace/perfetto.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { defaultStore, openStore, storeWhere } from "../store-option.js";
import { storedRunEvents } from "../../trace/stored-trace.js";
import { childrenOf } from "../../strategies/stored-runs.js";

export function traceCommand(program: Command, io: CliIo): void {
  program
    .command("trace")
    .argument("[events.jsonl]", "the events of a run, one JSON object per line")
    .option("-o, --out <file>", "where to write the page (default: next to the events, .html; <runId>.html for --run)")
    .option("--run <id>", "draw this run from the store instead of an events file")
    .option("--store <sqlite:path|postgres://…>", "the store of --run", defaultStore)
    .option(
      "--format <html|perfetto>",
      "html (a page), or perfetto (Chrome trace-event JSON for ui.perfetto.dev and chrome://tracing)",
      "html",
    )
    .action(async (path: string | undefined, flags: { out?: string; run?: string; store: string; format: string }) => {
      if (flags.format !== "html" && flags.format !== "perfetto")
        throw new CliError(`--format takes html or perfetto, got "${flags.format}"`);
      const extension = flags.format === "html" ? ".html" : ".json";
      const write = (out: string, events: PlanloopEvent[], title: string) =>
        writeFileSync(out, flags.format === "html" ? renderTraceHtml(events, { title }) : JSON.stringify(perfettoTrace(events, { title })));
      if ((path === undefined) === (flags.run === undefined))
        throw new CliError("trace takes an events file or --run <id>, one of the two");
      if (flags.run !== undefined) {
        const runId = flags.run;
        const store = await openStore(flags.store, { readonly: true });
        let events: PlanloopEvent[];
        try {
          const run = await store.getRun(runId);
          if (run === undefined)
            throw new CliError(
              `there is no run "${runId}" in ${storeWhere(flags.store, store)}; name the store the run was kept in with --store or PLANLOOP_STORE`,
            );
          events = storedRunEvents(run, await childrenOf(store, runId));
        } finally {
          await store.close();
        }
        const out = flags.out ?? `${runId.replace(/[^\w.-]+/g, "_")}${extension}`;
        write(out, events, `planloop trace: run ${runId}`);
        io.out(out);
        return;
      }
      const events = readEvents(path!);
      const out = flags.out ?? path!.replace(/\.jsonl?$/, "") + (flags.format === "html" ? ".html" : ".perfetto.json");
      write(out, events, `planloop trace: ${path}`);
      io.out(out);
    });
}

export function readEvents(path: string): PlanloopEvent[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`cannot read events ${path}: no such file (check the path)`);
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      try {
        return JSON.parse(line) as PlanloopEvent;
      } catch {
        throw new CliError(`${path} line ${index + 1} is not JSON: each line must be one event`);
      }
    });
}
