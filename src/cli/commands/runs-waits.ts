import type { Command } from "commander";
import { shown } from "../../core/errors.js";
import type { CheckpointStore } from "../../journal/checkpoint-store.js";
import { sendEvent } from "../../waits/send-event.js";
import { dueOutermostRuns } from "../../waits/wake-due-runs.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { openStore } from "../store-option.js";
import type { ContinueFlags } from "../continue-run.js";
import { wordOptions } from "../word-options.js";

type SignalFlags = { store: string; data?: string; run?: string; id?: string; keepMs?: string };
type WakeFlags = ContinueFlags & { limit: string };

/**
 * `planloop runs signal` sends an event to the runs waiting for it; `planloop runs wake`
 * continues, once, every run whose wait is over (its time came, or its event was sent).
 */
export function waitCommands(
  runs: Command,
  withStore: (command: Command) => Command,
  io: CliIo,
  resume: (runId: string, flags: ContinueFlags) => Promise<void>,
): void {
  withStore(runs.command("signal").description("Send an event to the runs that wait for it (waitFor steps); the next wake continues them"))
    .argument("<event>", "the event's name, as the waitFor step names it")
    .option("--data <json>", "the event's data: the waiting step's output", "null")
    .option("--run <runId>", "only this run (and the runs inside it) may take it")
    .option("--id <id>", "the event's id: sending the same id again keeps it once")
    .option("--keep-ms <ms>", "how long it is kept for a run that starts waiting later (default 24 h)")
    .action(async (event: string, flags: SignalFlags) =>
      usingWritable(flags.store, async (store) => {
        const sent = await sendEvent({
          store,
          event,
          data: parsedData(flags.data),
          runId: flags.run,
          id: flags.id,
          ...(flags.keepMs === undefined ? {} : { keepMs: Number(flags.keepMs) }),
        });
        io.out(
          `event ${event} ${sent.duplicate ? "was sent before" : "sent"} (id ${sent.id}, #${sent.seq}); planloop runs wake continues the runs waiting for it`,
        );
      }),
    );
  wordOptions(
    withStore(runs.command("wake").description("Continue every run whose wait is over (its time came, or its event was sent), once")),
  )
    .option("--tools <module>", "the tools module to continue the runs with (the store's launch line is not trusted to name one)")
    .option("--limit <n>", "at most this many runs", "100")
    .action(async (flags: WakeFlags) => {
      const due = await usingWritable(flags.store, (store) => dueOutermostRuns(store, { at: Date.now(), limit: Number(flags.limit) }));
      if (due.length === 0) io.out(`no run in ${flags.store} is due to wake`);
      let failed = 0;
      for (const { runId } of due) {
        io.out(`run ${runId}: its wait is over; continuing it`);
        try {
          await resume(runId, flags);
        } catch (error) {
          // One run that cannot be continued here does not stop the others.
          failed += 1;
          io.err(`run ${runId}: ${error instanceof CliError ? error.message : shown(error)}`);
        }
      }
      io.exitCode(failed === 0 ? 0 : 1);
    });
}

function parsedData(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "null") as unknown;
  } catch {
    throw new CliError(`--data must be JSON (e.g. '{"rows": 1200}'), not ${text}`);
  }
}

async function usingWritable<T>(flag: string, use: (store: CheckpointStore) => Promise<T>): Promise<T> {
  const store = await openStore(flag, { readonly: false });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
