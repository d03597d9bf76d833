import type { JournalEntry } from "../core/checkpoint-store.js";
import { openStoredRun, type Durability, type DurableOptions } from "../core/checkpoints.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import type { AgentResult } from "./agent-result.js";
import type { AgentState } from "./agent-state.js";

/** What the store says of a loop about to start: nothing yet, a result, or a state to continue. */
export type OpenedAgent =
  | { kind: "new"; runId: string; durability: Durability | undefined }
  | { kind: "finished"; runId: string; result: AgentResult }
  | { kind: "continue"; runId: string; durability: Durability; resume: AgentState | undefined };

/** Opens a ReAct loop by id (see `openStoredRun`); an unfinished one continues from its journal. */
export async function openAgentRun(options: DurableOptions): Promise<OpenedAgent> {
  const opened = await openStoredRun(options, "runAgent");
  if (opened.kind === "finished") return { ...opened, result: opened.result as AgentResult };
  if (opened.kind === "new") return opened;
  return { kind: "continue", runId: opened.runId, durability: opened.durability, resume: stateFromAgentJournal(opened.journal) };
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
