import { canonicalJson } from "../core/canonical-json.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";

/** What the detector remembers between rounds; part of the resumable state. */
export interface NoProgressState {
  /** How often each call (name plus canonical arguments) was requested. */
  calls: Record<string, number>;
  lastError?: string;
  errorStreak: number;
}

export interface NoProgressSettings {
  /** Stop when the same call is made, or the same error seen in a row, this many times. */
  maxRepeats: number;
}

export function emptyNoProgress(): NoProgressState {
  return { calls: {}, errorStreak: 0 };
}

/**
 * Records one finished round of tool calls and says whether the run has stopped making
 * progress: a call repeated with identical arguments (key order ignored), or the same
 * error `maxRepeats` times in a row with no successful observation between. Pure.
 */
export function observeRound(
  state: NoProgressState,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  settings: NoProgressSettings,
): { state: NoProgressState; stall?: string } {
  const calls = { ...state.calls };
  let { lastError, errorStreak } = state;
  let stall: string | undefined;
  for (const { call, outcome } of results) {
    const signature = `${call.name} ${canonicalJson(call.arguments ?? {})}`;
    const count = (calls[signature] ?? 0) + 1;
    calls[signature] = count;
    if (count >= settings.maxRepeats) {
      stall ??= `"${call.name}" was called ${count} times with the same arguments ${canonicalJson(call.arguments ?? {})}`;
    }
    const error = outcome.error;
    if (!error) {
      lastError = undefined;
      errorStreak = 0;
    } else if (error.kind !== "cancelled") {
      const errorSignature = `${call.name}: ${error.message}`;
      errorStreak = errorSignature === lastError ? errorStreak + 1 : 1;
      lastError = errorSignature;
      if (errorStreak >= settings.maxRepeats) stall ??= `the same error ${errorStreak} times in a row: ${errorSignature}`;
    }
  }
  const next: NoProgressState = lastError === undefined ? { calls, errorStreak } : { calls, lastError, errorStreak };
  return stall === undefined ? { state: next } : { state: next, stall };
}
