import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json.js";
import { cappedList, InvalidOptionsError } from "../errors.js";
import { ownValue, textKeyed } from "../records.js";
import type { ApprovalDecision, HumanAnswers, HumanDecisions } from "./guarded-call.js";
import type { PendingKind } from "./tool-runner.js";

/**
 * A call the run paused on: a human must approve it, answer it (`kind: "input"`), or say
 * what became of a call that was running when the process stopped (`kind: "interrupted"`:
 * approve it to run it again, deny it to fail it, or answer it to mark it done with the answer
 * as its output).
 */
export interface PendingCall {
  /**
   * The key to decide it with, unique within the run: `step:<id>` for a plan's tool step,
   * `call:<turn>:<position>` for a ReAct call, with `@<step id>` after it inside an agent step.
   */
  id: string;
  /** The call's id as the model wrote it (information; approve by `id`). */
  callId: string | number;
  name: string;
  arguments: unknown;
  kind: PendingKind;
  /** For `kind: "input"`: the question the model asked; for `interrupted`, the question to the person. */
  question?: string;
  /** Of the tool name and arguments: a decision applies only to the call that was shown. */
  digest: string;
  /**
   * When the request for approval lapses (the tool's `approvalExpiresInMs`, on the run's
   * clock: milliseconds since the epoch by default): past it, the call is denied.
   */
  expiresAt?: number;
}

export type { PendingKind };

/** What a call that was running when the process stopped asks (`kind: "interrupted"`). */
export function interruptedQuestion(name: string): string {
  return `"${name}" was running when the process stopped — did it take effect? Approve to run it again, deny to fail it, or answer with its output to mark it done`;
}

/** The call id of a plan's tool step, the key to approve it with. */
export function toolStepCallId(stepId: string | number): string {
  return `step:${stepId}`;
}

/** The id of a ReAct call waiting in round `turn` at `position`. */
export function reactPendingId(turn: number, position: number): string {
  return `call:${turn}:${position}`;
}

/**
 * Whether a pending id is the one of a call's place (`call:1:0`) or a later decision asked on
 * it (`call:1:0#2`, after the call was cut short or failed once approved).
 */
export function pendingPosition(pendingId: string, placeId: string): boolean {
  return pendingId === placeId || (pendingId.startsWith(placeId) && /^#\d+$/.test(pendingId.slice(placeId.length)));
}

/**
 * The id of the next decision asked on the call at `placeId` after `pendingId`: `step:2` →
 * `step:2#2` → `step:2#3` (counted after the place, so a step id with "#" in it counts too).
 */
export function nextDecisionId(placeId: string, pendingId: string | undefined): string {
  const asked = pendingId !== undefined && pendingId !== placeId && pendingPosition(pendingId, placeId);
  return `${placeId}#${asked ? Number(pendingId.slice(placeId.length + 1)) + 1 : 2}`;
}

/** A short hash of a call's tool name and arguments (key order ignored). */
export function callDigest(name: string, args: unknown): string {
  return createHash("sha256")
    .update(canonicalJson([name, args ?? {}]))
    .digest("hex")
    .slice(0, 16);
}

/**
 * Checks that a paused call is still the call that was shown when the run paused: a saved
 * state edited since (another amount, another tool) is refused with an error that says so.
 */
export function checkPendingDigest(pending: PendingCall, call: { name: string; arguments?: unknown }): void {
  if (callDigest(call.name, call.arguments) === pending.digest && call.name === pending.name) return;
  throw new InvalidOptionsError(
    `resume: the saved state was changed after it paused: the call waiting as ${pending.id} is no longer the call that was shown; ` +
      "start from an unchanged state (sign states with stateSecret to have such changes refused on reading)",
  );
}

/**
 * The humans' decisions, keyed by the ids of the calls they decide. A key is a pending id,
 * or a model's call id that exactly one pending call has. A key that matches no pending call
 * or several, a decision of the wrong kind, or one whose `digest` is not the call's, is an
 * error naming the pending ids: a decision never goes unused, nor releases more than it names.
 */
export function resolveDecisions(pending: readonly PendingCall[], decisions: HumanDecisions, used: readonly string[] = []): HumanAnswers {
  const resolved: HumanAnswers = { approvals: textKeyed<ApprovalDecision>(), answers: textKeyed<string>(), used: [...used] };
  for (const [kind, given, into] of [
    ["approval", decisions.approvals, resolved.approvals],
    ["input", decisions.answers, resolved.answers],
  ] as const) {
    if (given === undefined || given === null) continue;
    for (const key of Object.keys(given)) {
      if (used.includes(key) && !pending.some((call) => call.id === key)) {
        throw new InvalidOptionsError(`the decision for "${key}" was already used by this run; a call runs once per decision`);
      }
      const call = pendingFor(pending, key);
      // An interrupted call is decided either way: approved or denied, or answered with its output.
      if (call.kind !== kind && call.kind !== "interrupted") {
        throw new InvalidOptionsError(
          `${key} waits for ${call.kind === "input" ? "an answer (pass it in answers)" : "approval (pass it in approvals)"}`,
        );
      }
      const decision = ownValue<unknown>(given, key);
      const digest = (decision as { digest?: unknown } | null)?.digest;
      if (digest !== undefined && digest !== call.digest) {
        throw new InvalidOptionsError(
          `the decision for ${call.id} names digest ${String(digest)}, but the call waiting there has ${call.digest}`,
        );
      }
      if (ownValue(into as Record<string, unknown>, call.id) !== undefined)
        throw new InvalidOptionsError(`${call.id} is decided twice (as ${call.id} and as its call id)`);
      (into as Record<string, unknown>)[call.id] = decision;
    }
  }
  return resolved;
}

function pendingFor(pending: readonly PendingCall[], key: string): PendingCall {
  const byId = pending.filter((call) => call.id === key);
  // A later decision on a call (`step:1#2`: it was cut short, or failed once approved) is
  // taken by its id only: the first decision, given again by the call's id, must not run it.
  const matches =
    byId.length > 0 ? byId : pending.filter((call) => String(call.callId) === key && (call.id === key || !/#\d+$/.test(call.id)));
  if (matches.length === 1) return matches[0]!;
  const ids =
    pending.length === 0
      ? "none"
      : cappedList(
          pending.map((call) => call.id),
          (count) => `and ${count} more`,
        ).join(", ");
  const later = pending.find((call) => call.id !== key && (pendingPosition(call.id, key) || String(call.callId) === key));
  const why =
    matches.length > 1
      ? `matches ${matches.length} pending calls; decide each by its id`
      : later === undefined
        ? "matches no pending call"
        : `matches no pending call: that decision was taken, and the call now asks anew as ${later.id} (${later.kind})`;
  throw new InvalidOptionsError(`the decision for "${key}" ${why}; the pending calls are: ${ids}`);
}

/** A run's `approvalExpiresInMs`: a positive whole number of milliseconds, or none. */
export function checkedExpiry(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0)
    throw new InvalidOptionsError("approvalExpiresInMs must be a positive whole number of milliseconds");
  return value;
}
