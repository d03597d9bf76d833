import { createHash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import { maskSecrets, type SecretKeys } from "../trust/secrets.js";
import { previewOf } from "../core/tools/tool-output.js";
import type { ToolCall } from "../core/messages.js";
import type { ToolOutcome } from "../core/tools/tool-runner.js";

/** What the detector remembers between rounds; part of the resumable state. */
export interface NoProgressState {
  /**
   * How often each call was requested, by its name and a digest of its canonical arguments
   * (the state is stored: a key holds no argument, so no secret, in clear).
   */
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
 * (key order ignored) in `maxRepeats` decisions, or the same error in `maxRepeats` decisions
 * in a row with no successful observation between.
 *
 * Repeats are counted across decisions, never within one: a model that asks for three alike
 * calls in one decision has not seen any of their results yet, so they are one attempt.
 */
export function recordRound(
  state: NoProgressState,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  /** `secretKeys`: whose values are masked in the message that names a repeated call. */
  settings: NoProgressSettings & { secretKeys: SecretKeys },
): string | undefined {
  const round = readRound(results);
  let stall: string | undefined;
  for (const [signature, call] of round.calls) {
    const count = (state.calls[signature] ?? 0) + 1;
    state.calls[signature] = count;
    if (count >= settings.maxRepeats) {
      const shown = canonicalJson(maskSecrets(call.arguments ?? {}, settings.secretKeys));
      stall ??= `"${call.name}" was called ${count} times with the same arguments ${previewOf(shown, 200)}`;
    }
  }
  const firstError = round.errors.values().next().value;
  if (firstError === undefined) {
    // A round of cancelled calls only says nothing either way.
    if (round.succeeded) resetErrors(state);
    return stall;
  }
  const continues = !round.succeeded && state.lastError !== undefined && round.errors.has(state.lastError);
  state.errorStreak = continues ? state.errorStreak + 1 : 1;
  if (!continues) state.lastError = firstError;
  if (state.errorStreak >= settings.maxRepeats)
    stall ??= `the same error ${state.errorStreak} times in a row: ${previewOf(state.lastError!, 300)}`;
  return stall;
}

interface Round {
  /** Each distinct call of the decision once, by its signature. */
  calls: Map<string, ToolCall>;
  /** The distinct errors the decision's calls ended with (cancellations left out). */
  errors: Set<string>;
  succeeded: boolean;
}

function readRound(results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>): Round {
  const round: Round = { calls: new Map(), errors: new Set(), succeeded: false };
  for (const { call, outcome } of results) {
    const args = canonicalJson(call.arguments ?? {});
    const signature = `${call.name} ${createHash("sha256").update(args).digest("base64url").slice(0, 22)}`;
    if (!round.calls.has(signature)) round.calls.set(signature, call);
    const error = outcome.error;
    if (!error) round.succeeded = true;
    else if (error.kind !== "cancelled") round.errors.add(`${call.name}: ${error.message}`);
  }
  return round;
}

function resetErrors(state: NoProgressState): void {
  delete state.lastError;
  state.errorStreak = 0;
}
