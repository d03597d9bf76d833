import type { JournalEntry, RunWake } from "../journal/checkpoint-store.js";
import { openDurableRun, type DurableOptions, type Opened } from "../journal/checkpoints.js";
import {
  callDigest,
  interruptedQuestion,
  nextDecisionId,
  pendingPosition,
  reactPendingId,
  type PendingCall,
} from "../core/tools/approvals.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import type { AgentResult } from "./agent-result.js";
import type { AgentState, OpenRound } from "./agent-state.js";
import type { AgentRun } from "./agent-run.js";
import { InvalidOptionsError } from "../core/errors.js";

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
  // The history and counters so far, rebuilt from each snapshot's differences (see `pausedEntry`).
  const messages: AgentState["messages"] = [];
  let calls: Record<string, number> = {};
  let started = new Set<number>();
  // Processes that ran the open round's calls and died: the first, and each that resumed it.
  let resumed = 0;
  for (const entry of journal) {
    if (entry.kind === "paused") {
      const before = state?.openRound?.step;
      state = structuredClone(entry.state as AgentState);
      const from = entry.messagesFrom ?? 0;
      if (from > messages.length)
        throw new InvalidOptionsError(`a snapshot in the journal continues ${from} messages, but ${messages.length} came before it`);
      messages.length = from;
      for (const message of state.messages) messages.push(message);
      if (entry.callsChanged !== true) calls = {};
      Object.assign(calls, state.progress.calls);
      started = new Set();
      // A pause for a person within the round does not start the count again.
      if (state.openRound?.step !== before) resumed = 0;
    } else if (entry.kind === "round-resumed" && state?.openRound?.step === entry.turn) resumed += 1;
    else if (entry.kind === "call-start" && state?.openRound?.step === entry.turn) started.add(entry.position);
    else if (entry.kind === "call-end" && state?.openRound?.step === entry.turn) {
      state.openRound.outcomes[entry.position] = entry.outcome as ToolOutcome;
      started.delete(entry.position);
    }
  }
  const round = state?.openRound;
  for (const position of round === undefined ? [] : started) {
    const call = round!.calls[position];
    if (call === undefined) continue;
    const id = reactPendingId(round!.step, position);
    // A call that waited for a decision started on it: asked about under a new id, so that
    // decision cannot run it again.
    const decided = round!.pending.findIndex((pending) => pendingPosition(pending.id, id));
    const args = call.arguments ?? {};
    const asked: PendingCall = {
      id: decided === -1 ? id : nextDecisionId(id, round!.pending[decided]!.id),
      callId: call.id,
      name: call.name,
      arguments: args,
      kind: "interrupted",
      question: interruptedQuestion(call.name),
      digest: callDigest(call.name, args),
    };
    if (decided === -1) round!.pending.push(asked);
    else round!.pending[decided] = asked;
  }
  if (round !== undefined && unfinishedCalls(round).length > 0) round.cutShort = resumed + 1;
  if (state !== undefined) {
    state.messages = messages;
    state.progress.calls = calls;
  }
  return state;
}

/**
 * A loop's snapshot as the journal keeps it: the history's messages since the last snapshot and
 * the no-progress counters that changed since (both grow by a round per turn; written whole
 * each turn, 200 turns took 9.4 MB, `npm run bench:loop-journal`). `stateFromAgentJournal` puts
 * them together again. Records what it wrote in `run.journaled`.
 */
export function pausedEntry(run: AgentRun, state: AgentState, fields: { status?: string; at?: number; wake?: RunWake } = {}): JournalEntry {
  const from = Math.min(run.journaled.messages, state.messages.length);
  run.journaled.messages = state.messages.length;
  const changed: Record<string, number> = {};
  for (const [signature, count] of Object.entries(state.progress.calls)) {
    if (run.journaled.calls.get(signature) === count) continue;
    changed[signature] = count;
    run.journaled.calls.set(signature, count);
  }
  const kept = { ...state, messages: state.messages.slice(from), progress: { ...state.progress, calls: changed } };
  return { kind: "paused", state: kept, ...(from === 0 ? {} : { messagesFrom: from }), callsChanged: true, ...fields };
}

/** The places of a round's calls that have no result and wait for nobody: they run (again) when the round is settled. */
export function unfinishedCalls(round: OpenRound): number[] {
  const places: number[] = [];
  round.calls.forEach((_, position) => {
    if (round.outcomes[position] !== null && round.outcomes[position] !== undefined) return;
    if (round.wakeAt?.[position] !== undefined) return;
    const place = reactPendingId(round.step, position);
    if (!round.pending.some((pending) => pendingPosition(pending.id, place))) places.push(position);
  });
  return places;
}
