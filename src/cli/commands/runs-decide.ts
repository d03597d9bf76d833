import { decideRun, type RunDecision } from "../../runs/decide-run.js";
import { childrenOf, lastPause, pendingOf } from "../../strategies/stored-runs.js";
import { usingStore, storedRun } from "../continue-run.js";

/** Who decides when `--decided-by` does not say. */
export const commandLine = "planloop runs";

/**
 * Checks what `planloop runs approve|deny|answer` was given against what the run waits for
 * now (`decideRun`, as every face does): all of it or none. A refusal (`DecisionsRefusedError`)
 * names each bad item, exits 2, and nothing is run.
 */
export async function checkDecisions(
  runId: string,
  decisions: RunDecision[],
  flags: { store: string; decidedBy?: string | undefined },
): Promise<void> {
  await usingStore(flags.store, async (store) => {
    const run = await storedRun(store, runId, flags.store);
    const finished = run.status === "finished" ? ((run.result as { status?: string } | undefined)?.status ?? "finished") : undefined;
    const paused = finished === undefined ? lastPause(run, await childrenOf(store, run.runId)) : undefined;
    const pending = paused === undefined ? [] : pendingOf(paused);
    decideRun({ run: { runId, pending, finished }, decisions, by: flags.decidedBy || commandLine });
  });
}
