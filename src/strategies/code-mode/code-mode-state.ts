import { InvalidOptionsError } from "../../core/errors.js";
import { isRecord } from "../../core/is-record.js";
import { isElapsedMs, isUsageTotals, readSavedState } from "../../core/saved-state.js";
import { callDigest, type PendingCall } from "../../core/tools/approvals.js";
import type { ToolOutcome } from "../../core/tools/tool-runner.js";
import type { UsageTotals } from "../../core/usage.js";

const stateKind = "planloop/code-mode-state";
const stateVersion = 1;

/** A call a program made, kept with its outcome so a replay of the program reads it instead of calling again. */
export interface KeptCall {
  /** `<digest of tool and arguments>:<n>`: the n-th such call of a program. */
  key: string;
  /** The program (0 first, then each repair) that made it. */
  attempt: number;
  name: string;
  arguments: unknown;
  outcome: ToolOutcome;
}

/** A program the model wrote, and why it failed if it did. */
export interface WrittenProgram {
  source: string;
  failure?: string;
}

/**
 * A code-mode run paused for a human: the programs written so far (the last is the one that
 * waits), the calls they made with their outcomes, and the calls that wait. Plain JSON; pass
 * it back as `resume` with the decisions: the last program runs again from its start, reading
 * the kept outcomes, so no call runs twice.
 */
export interface CodeModeState {
  kind: typeof stateKind;
  version: typeof stateVersion;
  programs: WrittenProgram[];
  calls: KeptCall[];
  pending: PendingCall[];
  /** What the programs' `Date` says: the same on every replay. */
  now: number;
  toolCallCounts: Record<string, number>;
  usedApprovals: string[];
  usage: UsageTotals;
  elapsedMs: number;
}

export function createCodeModeState(fields: Omit<CodeModeState, "kind" | "version">): CodeModeState {
  return { kind: stateKind, version: stateVersion, ...fields };
}

/**
 * Checks a state handed back as `resume`: kind, version and parts, and that each call that
 * waits is the call it was shown as (its digest).
 */
export function readCodeModeState(value: unknown): CodeModeState {
  const state = readSavedState<CodeModeState>(value, { kind: stateKind, version: stateVersion, what: "codeMode" });
  const valid =
    Array.isArray(state.programs) &&
    state.programs.length > 0 &&
    state.programs.every((program) => isRecord(program) && typeof program.source === "string") &&
    Array.isArray(state.calls) &&
    state.calls.every(
      (call) => isRecord(call) && typeof call.key === "string" && typeof call.name === "string" && isRecord(call.outcome),
    ) &&
    Array.isArray(state.pending) &&
    typeof state.now === "number" &&
    isRecord(state.toolCallCounts) &&
    Array.isArray(state.usedApprovals) &&
    isUsageTotals(state.usage) &&
    isElapsedMs(state.elapsedMs);
  if (!valid) throw new InvalidOptionsError("resume state is damaged: its programs, calls, counters or usage are missing");
  for (const pending of state.pending!) {
    if (!isRecord(pending) || typeof pending.id !== "string" || callDigest(pending.name, pending.arguments) !== pending.digest)
      throw new InvalidOptionsError(`resume: the call waiting as ${String(pending?.id)} was changed after the run paused`);
  }
  return state as CodeModeState;
}
