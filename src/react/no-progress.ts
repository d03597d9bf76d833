import { canonicalJson } from "../core/canonical-json.js";
import { previewOf } from "../core/tools/tool-output.js";
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
 * Records one finished round of tool calls in `state` (updated in place: the counters grow
 * with the run, and copying them every round would make a long run quadratic) and says
 * whether the run has stopped making progress: a call repeated with identical arguments
 * (key order ignored), or the same error `maxRepeats` times in a row with no successful
 * observation between.
 */
export function recordRound(
  state: NoProgressState,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  settings: NoProgressSettings,
): string | undefined {
  let stall: string | undefined;
  for (const { call, outcome } of results) {
    const signature = `${call.name} ${canonicalJson(call.arguments ?? {})}`;
    const count = (state.calls[signature] ?? 0) + 1;
    state.calls[signature] = count;
    if (count >= settings.maxRepeats) {
      stall ??= `"${call.name}" was called ${count} times with the same arguments ${previewOf(canonicalJson(call.arguments ?? {}), 200)}`;
    }
    const error = outcome.error;
    if (!error) {
      delete state.lastError;
      state.errorStreak = 0;
    } else if (error.kind !== "cancelled") {
      const errorSignature = `${call.name}: ${error.message}`;
      state.errorStreak = errorSignature === state.lastError ? state.errorStreak + 1 : 1;
      state.lastError = errorSignature;
      if (state.errorStreak >= settings.maxRepeats)
        stall ??= `the same error ${state.errorStreak} times in a row: ${previewOf(errorSignature, 300)}`;
    }
  }
  return stall;
}
