import { createHash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";
import { maskSecrets, type SecretKeys } from "../core/secrets.js";
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
 * (key order ignored), or the same error `maxRepeats` times in a row with no successful
 * observation between.
 */
export function recordRound(
  state: NoProgressState,
  results: ReadonlyArray<{ call: ToolCall; outcome: ToolOutcome }>,
  /** `secretKeys`: whose values are masked in the message that names a repeated call. */
  settings: NoProgressSettings & { secretKeys: SecretKeys },
): string | undefined {
  let stall: string | undefined;
  for (const { call, outcome } of results) {
    const args = canonicalJson(call.arguments ?? {});
    const signature = `${call.name} ${createHash("sha256").update(args).digest("base64url").slice(0, 22)}`;
    const count = (state.calls[signature] ?? 0) + 1;
    state.calls[signature] = count;
    if (count >= settings.maxRepeats) {
      const shown = canonicalJson(maskSecrets(call.arguments ?? {}, settings.secretKeys));
      stall ??= `"${call.name}" was called ${count} times with the same arguments ${previewOf(shown, 200)}`;
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
