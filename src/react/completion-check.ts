import { raceAbort } from "../core/abort.js";
import { errorMessage } from "../core/errors.js";
import type { Message } from "../core/messages.js";

export type VerifyResult = { passed: true } | { passed: false; feedback: string };

/**
 * Checks a final answer against the real outcome (seed 001 §4.1): tests pass, fields are
 * filled, the record exists. Rejection feedback goes back to the model; a throw marks the
 * answer `unverified`.
 */
export type Verifier = (input: {
  output: string;
  messages: readonly Message[];
  signal: AbortSignal;
}) => VerifyResult | Promise<VerifyResult>;

export type CompletionVerdict = { kind: "passed" } | { kind: "rejected"; feedback: string } | { kind: "verifier_failed"; message: string };

export async function checkCompletion(
  verify: Verifier | undefined,
  input: { output: string; messages: readonly Message[]; signal: AbortSignal },
): Promise<CompletionVerdict> {
  if (!verify) return { kind: "passed" };
  let verdict: unknown;
  try {
    verdict = await raceAbort(
      Promise.resolve().then(() => verify(input)),
      input.signal,
    );
  } catch (error) {
    if (input.signal.aborted) throw error;
    return { kind: "verifier_failed", message: errorMessage(error) };
  }
  if (typeof verdict !== "object" || verdict === null || typeof (verdict as VerifyResult).passed !== "boolean") {
    return { kind: "verifier_failed", message: `verify returned ${JSON.stringify(verdict)}, not { passed: boolean }` };
  }
  const result = verdict as VerifyResult;
  if (result.passed) return { kind: "passed" };
  return { kind: "rejected", feedback: String(result.feedback ?? "the answer did not pass verification") };
}

export function feedbackMessage(feedback: string): Message {
  return { role: "user", content: `Your answer did not pass verification: ${feedback}\nFix this and answer again.` };
}
