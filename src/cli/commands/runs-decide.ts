import type { RunDecision } from "../../runs/decide-run.js";
import { checkDecisions as checkInRoom } from "../../runs/take-decisions.js";
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
    // A missing run is named with the store it was looked for in.
    await storedRun(store, runId, flags.store);
    await checkInRoom({ store, runId, decisions, by: flags.decidedBy || commandLine });
  });
}
