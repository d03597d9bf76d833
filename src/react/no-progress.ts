import { canonicalJson } from "../core/canonical-json.js";
import { maskSecrets, type SecretKeys } from "../trust/secrets.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";
import { CallCounts, callKey } from "./call-counts.js";

/** What the detector remembers between rounds, as the resumable state keeps it. */
export interface NoProgressState {
  /**
   * How often each call was requested, by its name and a digest of its canonical arguments
   * (`callSignature`: the state is stored, and a key holds no argument, so no secret, in clear).
   */
  calls: Record<string, number>;
  lastError?: string;
  errorStreak: number;
}

/** What the detector remembers while the loop runs: `NoProgressState` with the calls counted by key. */
export interface NoProgress {
  calls: CallCounts;
  lastError?: string;
  errorStreak: number;
}

export interface NoProgressSettings {
  /** Stop when the same call is made, or the same error seen in a row, this many times. */
  maxRepeats: number;
}

export function emptyNoProgress(): NoProgress {
  return { calls: new CallCounts(), errorStreak: 0 };
}

/** The detector as a kept state left it (copied: the state is not changed). */
export function continuedNoProgress(saved: NoProgressState): NoProgress {
  const progress: NoProgress = { calls: new CallCounts(saved.calls), errorStreak: saved.errorStreak };
  if (saved.lastError !== undefined) progress.lastError = saved.lastError;
  return progress;
}

/** The detector as the state keeps it. */
export function keptNoProgress(progress: NoProgress): NoProgressState {
  const kept: NoProgressState = { calls: progress.calls.kept(), errorStreak: progress.errorStreak };
  if (progress.lastError !== undefined) kept.lastError = progress.lastError;
  return kept;
}

/**
 * Records one finished round of tool calls in `state` (updated in place: the counters grow
 * with the run, and copying them every round would make a long run quadratic) and says
 * whether the run has stopped making progress: a call repeated with identical arguments
 * (key order ignored) in `maxRepeats` decisions, or the same error in `maxRepeats` decisions
 * in a row with no successful observation between.
 *
 * Repeats are counted across decisions, never within one: a model that asks for three alike
 * calls in one decision has not seen any of their results yet, so they are one attempt.
 */
export function recordRound(
  state: NoProgress,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  /** `secretKeys`: whose values are masked in the message that names a repeated call. */
  settings: NoProgressSettings & { secretKeys: SecretKeys },
): string | undefined {
  const repeated = countRepeats(state.calls, results, settings);
  const failing = countErrors(state, results, settings.maxRepeats);
  return repeated ?? failing;
}

/** Counts each distinct call of the round once; names the first that reached `maxRepeats`. */
function countRepeats(
  calls: CallCounts,
  results: ReadonlyArray<{ call: ToolCall }>,
  settings: NoProgressSettings & { secretKeys: SecretKeys },
): string | undefined {
  // Alike calls of a decision found by a scan, not a collection per round: most decisions make one call.
  const keys = results.map(({ call }) => callKey(call.name, call.arguments));
  let stall: string | undefined;
  keys.forEach((key, index) => {
    if (keys.indexOf(key) !== index) return;
    const count = calls.add(key);
    if (count < settings.maxRepeats || stall !== undefined) return;
    const call = results[index]!.call;
    const shown = canonicalJson(maskSecrets(call.arguments ?? {}, settings.secretKeys));
    stall = `"${call.name}" was called ${count} times with the same arguments ${previewOf(shown, 200)}`;
  });
  return stall;
}

/**
 * The error streak: a round continues it when the streak's error is among the round's errors
 * (cancellations left out) and no call of it succeeded; a round with other errors starts a new
 * one with its first.
 */
function countErrors(
  state: NoProgress,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  maxRepeats: number,
): string | undefined {
  let firstError: string | undefined;
  let streakErrorAgain = false;
  let succeeded = false;
  for (const { call, outcome } of results) {
    const error = outcome.error;
    if (!error) succeeded = true;
    else if (error.kind !== "cancelled") {
      const signature = `${call.name}: ${error.message}`;
      firstError ??= signature;
      if (signature === state.lastError) streakErrorAgain = true;
    }
  }
  if (firstError === undefined) {
    // A round of cancelled calls only says nothing either way.
    if (succeeded) resetErrors(state);
    return undefined;
  }
  const continues = !succeeded && streakErrorAgain;
  state.errorStreak = continues ? state.errorStreak + 1 : 1;
  if (!continues) state.lastError = firstError;
  if (state.errorStreak < maxRepeats) return undefined;
  return `the same error ${state.errorStreak} times in a row: ${previewOf(state.lastError!, 300)}`;
}

function resetErrors(state: NoProgress): void {
  if (state.lastError !== undefined) delete state.lastError;
  state.errorStreak = 0;
}
