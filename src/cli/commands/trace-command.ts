import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { PlanloopEvent } from "../../core/events.js";
import { renderTraceHtml } from "../../trace/trace-html.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";

export function traceCommand(program: Command, io: CliIo): void {
  program
    .command("trace")
    .description("Write a self-contained HTML timeline of a run from its events (JSONL)")
    .argument("<events.jsonl>", "the events of a run, one JSON object per line")
    .option("-o, --out <file>", "where to write the page (default: next to the events, .html)")
    .action((path: string, flags: { out?: string }) => {
      const events = readEvents(path);
      const out = flags.out ?? path.replace(/\.jsonl?$/, "") + ".html";
      writeFileSync(out, renderTraceHtml(events, { title: `planloop trace: ${path}` }));
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
