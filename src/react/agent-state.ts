import { InvalidOptionsError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import { isElapsedMs, isUsageTotals, readSavedState } from "../core/saved-state.js";
import type { Message, ToolCall } from "../core/messages.js";
import { callDigest, checkPendingDigest, reactPendingId } from "../core/tools/approvals.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import type { UsageTotals } from "../core/usage.js";
import type { AgentStatus, PendingCall } from "./agent-status.js";
import type { NoProgressState } from "./no-progress.js";
import type { ContextCut } from "./context-window.js";

const stateKind = "planloop/agent-state";
const stateVersion = 1;

/** A round of tool calls that could not finish: some calls wait for a human. */
export interface OpenRound {
  step: number;
  calls: ToolCall[];
  /** One entry per call, in call order; null while the call has no result yet. */
  outcomes: Array<ToolOutcome | null>;
  pending: PendingCall[];
  /** A durable loop's `wait_until` calls still waiting, by their place in the round: when each wakes (ms since 1970). */
  wakeAt?: Record<string, number>;
  /** A durable loop's round whose calls crashes cut short: how many times (see `maxRecoveries`). */
  cutShort?: number;
}

/**
 * Everything needed to continue a stopped loop. Plain JSON: store it anywhere and pass it
 * back as `runAgent({ ...options, resume: state })`.
 */
export interface AgentState {
  kind: typeof stateKind;
  version: typeof stateVersion;
  /** The run's `taskType`, if it was given one (for statistics over stopped runs). */
  taskType?: string;
  /** The status the run stopped with, or "failed" when the model call threw. */
  status: AgentStatus | "failed";
  messages: Message[];
  steps: number;
  usage: UsageTotals;
  /** Active time spent so far; the deadline counts only this, not the time spent waiting. */
  elapsedMs: number;
  toolCallCounts: Record<string, number>;
  progress: NoProgressState;
  lastCall?: { tokens: number; costUsd: number };
  /** An answer the verifier rejected and the model has not replaced yet. */
  rejectedAnswer?: { output: string; feedback: string };
  openRound?: OpenRound;
  /** The ids of the decisions (approvals, answers) this run has used: each is used once. */
  usedApprovals?: string[];
  /** Where a context policy's view of `messages` starts, and its summary (see `ContextPolicy`). */
  context?: ContextCut;
}

export function createState(fields: Omit<AgentState, "kind" | "version">): AgentState {
  return { kind: stateKind, version: stateVersion, ...fields };
}

/** Checks a `resume` value enough to fail early with a message that says what is wrong. */
export function readState(value: unknown): AgentState {
  const state = readSavedState<AgentState>(value, { kind: stateKind, version: stateVersion, what: "runAgent" });
  const valid =
    Array.isArray(state.messages) &&
    Number.isInteger(state.steps) &&
    isUsageTotals(state.usage) &&
    isElapsedMs(state.elapsedMs) &&
    isRecord(state.toolCallCounts) &&
    isRecord(state.progress);
  if (!valid) throw new InvalidOptionsError("resume state is damaged: messages, steps, usage or counters are missing");
  if (state.openRound !== undefined) checkOpenRound(state.openRound);
  return state as AgentState;
}

/**
 * The round a state paused in: every pending call must be the call at its place in the
 * round, unchanged since it was shown. Pending calls saved without an id or a digest (by an
 * earlier planloop) get them from their call.
 */
function checkOpenRound(round: OpenRound): void {
  if (!isRecord(round) || !Array.isArray(round.calls) || !Array.isArray(round.pending) || !Number.isInteger(round.step)) {
    throw new InvalidOptionsError("resume state is damaged: its open round is malformed");
  }
  for (const pending of round.pending) {
    const position =
      pending.id === undefined ? round.calls.findIndex((call) => call.id === pending.callId) : positionOf(pending.id, round.step);
    const call = round.calls[position];
    if (call === undefined)
      throw new InvalidOptionsError(`resume state is damaged: pending call ${pending.id ?? pending.callId} is not in its round`);
    if (pending.id === undefined) {
      pending.id = reactPendingId(round.step, position);
      pending.digest = callDigest(call.name, call.arguments);
    }
    checkPendingDigest(pending, call);
  }
}

function positionOf(id: string, turn: number): number {
  const match = /^call:(\d+):(\d+)(?:#\d+)?$/.exec(id);
  return match && Number(match[1]) === turn ? Number(match[2]) : -1;
}
