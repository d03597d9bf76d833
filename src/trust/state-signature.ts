import { InvalidOptionsError } from "../core/errors.js";
import { checkSecret, sameSecretText, signValue } from "./keyed-hash.js";
import { isRecord } from "../core/is-record.js";

export type { StateSigning } from "../core/run-settings.js";

/**
 * The state with its `signature`, and the id of the run it belongs to (`runId`, signed with
 * it: a state cannot start or continue another run); the state itself when there is no secret.
 */
export function signState<T extends object>(state: T, secret: string | undefined, runId: string): T {
  if (secret === undefined) return state;
  const bound = { ...state, runId };
  return { ...bound, signature: signatureOf(bound, secret) };
}

/**
 * The run a signed state belongs to, checked against the `runId` a caller gave: a signed
 * state resumes its own run (under its own id, so its calls keep their idempotency keys), and
 * is refused for another. Undefined without a secret or a state (the caller's id, or a new one).
 */
export function boundRunId(options: {
  resume?: unknown;
  stateSecret?: string | undefined;
  runId?: string | undefined;
}): string | undefined {
  const { resume, stateSecret } = options;
  if (stateSecret === undefined || resume === undefined) return undefined;
  verifyState(resume, stateSecret);
  const bound = (resume as { runId?: unknown }).runId;
  if (typeof bound !== "string") return undefined;
  if (options.runId !== undefined && options.runId !== bound) {
    throw new InvalidOptionsError(
      `resume: this state belongs to run "${bound}", not "${options.runId}"; continue it with runId "${bound}" (or with no runId)`,
    );
  }
  return bound;
}

/**
 * Refuses a state to resume whose signature does not match (it was changed since it was
 * signed, signed with another secret, or not signed at all). Without a secret, any state
 * passes.
 */
export function verifyState(value: unknown, secret: string | undefined): void {
  if (secret === undefined || value === undefined) return;
  checkSecret(secret);
  const signature = isRecord(value) ? value.signature : undefined;
  if (typeof signature !== "string")
    throw new InvalidOptionsError("resume: the state is not signed, and stateSecret asks for a signed state");
  const { signature: _, ...unsigned } = value as Record<string, unknown>;
  if (!sameSecretText(signature, signatureOf(unsigned, secret))) {
    throw new InvalidOptionsError(
      "resume: the state's signature does not match: it was changed after it was saved, or signed with another secret",
    );
  }
}

export { checkSecret };

function signatureOf(state: object, secret: string): string {
  const { signature: _, ...unsigned } = state as Record<string, unknown>;
  return signValue(secret, "", unsigned, "hex");
}
