import type { JournalEntry } from "../core/checkpoint-store.js";
import { openDurableRun, type DurableOptions, type Opened } from "../core/checkpoints.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import type { AgentResult } from "./agent-result.js";
import type { AgentState } from "./agent-state.js";

/** Opens a ReAct loop by id (see `openStoredRun`); an unfinished one continues from its journal. */
export function openAgentRun(options: DurableOptions): Promise<Opened<AgentResult, AgentState>> {
  return openDurableRun(options, { name: "runAgent", rebuild: stateFromAgentJournal });
}

/**
 * The loop's state by its journal: the last snapshot (written when a decision's calls were
 * about to run, or when the loop stopped), with the outcomes of the calls that ended after
 * it. A call that started and never ended runs again. Pure.
 */
export function stateFromAgentJournal(journal: readonly JournalEntry[]): AgentState | undefined {
  let state: AgentState | undefined;
  for (const entry of journal) {
    if (entry.kind === "paused") state = structuredClone(entry.state as AgentState);
    else if (entry.kind === "call-end" && state?.openRound?.step === entry.turn) {
      state.openRound.outcomes[entry.position] = entry.outcome as ToolOutcome;
    }
  }
  return state;
}
