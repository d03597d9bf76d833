import type { JournalEntry } from "../core/checkpoint-store.js";
import { openDurableRun, type DurableOptions, type Opened } from "../core/checkpoints.js";
import { callDigest, interruptedQuestion, reactPendingId } from "../core/tools/approvals.js";
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
 * it. A call that started and never ended runs again; a side-effecting one (it wrote a
 * `call-start`) waits instead for a person to say what became of it. Pure.
 */
export function stateFromAgentJournal(journal: readonly JournalEntry[]): AgentState | undefined {
  let state: AgentState | undefined;
  let started = new Set<number>();
  for (const entry of journal) {
    if (entry.kind === "paused") {
      state = structuredClone(entry.state as AgentState);
      started = new Set();
    } else if (entry.kind === "call-start" && state?.openRound?.step === entry.turn) started.add(entry.position);
    else if (entry.kind === "call-end" && state?.openRound?.step === entry.turn) {
      state.openRound.outcomes[entry.position] = entry.outcome as ToolOutcome;
      started.delete(entry.position);
    }
  }
  const round = state?.openRound;
  for (const position of round === undefined ? [] : started) {
    const call = round!.calls[position];
    const id = reactPendingId(round!.step, position);
    if (call === undefined || round!.pending.some((pending) => pending.id === id)) continue;
    const args = call.arguments ?? {};
    round!.pending.push({
      id,
      callId: call.id,
      name: call.name,
      arguments: args,
      kind: "interrupted",
      question: interruptedQuestion(call.name),
      digest: callDigest(call.name, args),
    });
  }
  return state;
}
