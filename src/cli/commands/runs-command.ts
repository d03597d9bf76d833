import type { Command } from "commander";
import type { JournalEntry } from "../../core/checkpoint-store.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { defaultStore, openStore } from "../store-option.js";

/** `planloop runs list` and `planloop runs show <id>`: what a store holds of its runs. */
export function runsCommand(program: Command, io: CliIo): void {
  const runs = program.command("runs").description("List and show the runs kept in a checkpoint store");
  runs
    .command("list")
    .description("The runs, newest first: id, entry point, status, entries, started")
    .option("--store <sqlite:path|postgres://…>", "the checkpoint store", defaultStore)
    .option("--limit <n>", "how many", "20")
    .action(async (flags: { store: string; limit: string }) => {
      const store = await openStore(flags.store);
      try {
        const listed = await store.listRuns({ limit: Number(flags.limit) || 20 });
        if (listed.length === 0) io.out(`no runs in ${flags.store}`);
        for (const run of listed) {
          io.out(`${run.runId}  ${run.entry}  ${run.status}  ${run.entries} entries  ${new Date(run.createdAt).toISOString()}`);
        }
      } finally {
        await store.close();
      }
    });
  runs
    .command("show")
    .description("One run: its plan, each step's last start and end, and its result")
    .argument("<runId>")
    .option("--store <sqlite:path|postgres://…>", "the checkpoint store", defaultStore)
    .action(async (runId: string, flags: { store: string }) => {
      const store = await openStore(flags.store);
      try {
        const run = await store.getRun(runId);
        if (run === undefined) throw new CliError(`there is no run "${runId}" in ${flags.store}`);
        io.out(`run ${run.runId} (${run.entry}): ${run.status}`);
        for (const line of stepLines(run.journal)) io.out(line);
        const result = run.result as { status?: string; reason?: string } | undefined;
        if (result?.status) io.out(`result: ${result.status}${result.reason ? `: ${result.reason}` : ""}`);
      } finally {
        await store.close();
      }
    });
}

/** Per step, in the order steps first appear: how it stands by the journal. */
function stepLines(journal: readonly JournalEntry[]): string[] {
  const steps = new Map<string, { starts: number; status: string }>();
  for (const entry of journal) {
    if (entry.kind === "step-start") {
      const step = steps.get(entry.stepKey) ?? { starts: 0, status: "running" };
      steps.set(entry.stepKey, { starts: step.starts + 1, status: "running" });
    } else if (entry.kind === "step-end") {
      const step = steps.get(entry.stepKey) ?? { starts: 0, status: "" };
      steps.set(entry.stepKey, { ...step, status: (entry.record as { status?: string }).status ?? "ended" });
    }
  }
  return [...steps].map(([key, step]) => `  step ${key}: ${step.status} (started ${step.starts}x)`);
}
