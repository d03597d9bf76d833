import { canonicalJson } from "../core/canonical-json.js";
import { InvalidOptionsError } from "../core/errors.js";
import { callDigest, checkPendingDigest, reactPendingId } from "../core/tools/approvals.js";
import { readPlan } from "../plan/read-plan.js";
import { isRecord } from "../core/is-record.js";
import { isElapsedMs, isUsageTotals, readSavedState } from "../core/saved-state.js";
import type { StepRecord } from "../plan/step-record.js";
import type { UsageTotals } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";

export type { StepRecord };
import type { AgentState } from "../react/agent-state.js";
import type { PendingCall } from "../react/agent-status.js";

/** A call a plan run paused on, with the step it belongs to. Approve it by `callId`. */
export interface PlanPendingCall extends PendingCall {
  stepId: string | number;
}

const stateKind = "planloop/plan-state";
const stateVersion = 1;

/**
 * A paused step: a tool call awaiting approval, an inner agent that waits for a human, or a
 * wait step (see `StepWait`).
 */
export type WaitingStep =
  | { kind: "tool"; pending: PlanPendingCall; poll?: PollProgress }
  | { kind: "agent"; pending: PlanPendingCall[]; agentState: AgentState }
  | StepWait;

/**
 * How far a poll step got, kept across its pauses (a timer until its next call, or a call that
 * waits for a person): when it first called (`maxMs` counts from there) and how many calls ran.
 */
export interface PollProgress {
  startedAt: number;
  calls: number;
}

/**
 * What a wait step waits for: a time (`until`, ms since 1970), or an event of a name whose data
 * has `match`'s fields, sent after the event numbered `afterSeq` (the store's numbering), until
 * `deadline` if the step has a timeout. A poll step waits for its next call's time, with when
 * it first called and how often (`poll`).
 */
export type StepWait =
  | { kind: "timer"; until: number; poll?: PollProgress }
  | { kind: "event"; event: string; match?: Record<string, unknown>; afterSeq: number; deadline?: number };

/** Whether a paused step waits for a time or an event rather than for a human. */
export function isStepWait(entry: WaitingStep): entry is StepWait {
  return entry.kind === "timer" || entry.kind === "event";
}

/** The calls a paused step waits for a decision on (none for a wait step). */
export function callsOf(entry: WaitingStep): PlanPendingCall[] {
  return entry.kind === "tool" ? [entry.pending] : entry.kind === "agent" ? entry.pending : [];
}

/**
 * What `executePlan({ resume })` needs to continue a run: the finished steps' records
 * (never run again), the paused steps, and the counters. Plain JSON.
 */
export interface PlanRunState {
  kind: typeof stateKind;
  version: typeof stateVersion;
  plan: Plan;
  steps: Record<string, StepRecord>;
  waiting: Record<string, WaitingStep>;
  usage: UsageTotals;
  elapsedMs: number;
  toolCallCounts: Record<string, number>;
  /** The ids of the decisions (approvals, answers) this run has used: each is used once. */
  usedApprovals?: string[];
  /** Steps whose call was running when the process stopped (by the journal): a side-effecting tool's asks before it runs again. */
  interrupted?: string[];
  /** For each of them, how many times a crash cut it short since it last ended (a step cut short too often is not started again). */
  cutShort?: Record<string, number>;
}

export function createPlanState(fields: Omit<PlanRunState, "kind" | "version">): PlanRunState {
  return { kind: stateKind, version: stateVersion, ...fields };
}

export function readPlanState(value: unknown): PlanRunState {
  const state = readSavedState<PlanRunState>(value, { kind: stateKind, version: stateVersion, what: "executePlan" });
  if (!isRecord(state.steps) || !isRecord(state.waiting) || !isUsageTotals(state.usage) || !isElapsedMs(state.elapsedMs)) {
    throw new InvalidOptionsError("resume state is damaged: steps, waiting, usage or elapsedMs are missing or malformed");
  }
  for (const [key, entry] of Object.entries(state.waiting as Record<string, WaitingStep>)) checkWaitingStep(key, entry);
  return state as PlanRunState;
}

/** Every call a saved plan run waits for, tool steps' and agent steps' alike. */
export function pausedCalls(state: PlanRunState): PlanPendingCall[] {
  return Object.values(state.waiting).flatMap(callsOf);
}

/**
 * A waiting tool step's call must be unchanged since it was shown (an agent step's inner loop
 * checks its own). Calls saved without an id or a digest (by an earlier planloop) get them.
 */
function checkWaitingStep(key: string, entry: WaitingStep): void {
  if (!isRecord(entry) || !waitingKinds.has(entry.kind)) {
    throw new InvalidOptionsError(`resume state is damaged: waiting step ${key} is malformed`);
  }
  if (entry.kind === "timer" || entry.kind === "event") {
    const time = entry.kind === "timer" ? entry.until : entry.afterSeq;
    if (typeof time !== "number" || !Number.isFinite(time) || (entry.kind === "event" && typeof entry.event !== "string"))
      throw new InvalidOptionsError(`resume state is damaged: waiting step ${key} is malformed`);
    if (entry.kind === "timer" && !isPollProgress(entry.poll))
      throw new InvalidOptionsError(`resume state is damaged: waiting step ${key} is malformed`);
    return;
  }
  if (entry.kind === "tool") {
    const pending = entry.pending;
    if (!isRecord(pending) || typeof pending.name !== "string" || !isPollProgress(entry.poll))
      throw new InvalidOptionsError(`resume state is damaged: waiting step ${key} is malformed`);
    if (pending.id === undefined) {
      pending.id = String(pending.callId);
      pending.digest = callDigest(pending.name, pending.arguments);
    }
    checkPendingDigest(pending, pending);
    return;
  }
  const round = entry.agentState?.openRound;
  for (const pending of entry.pending) {
    if (pending.id !== undefined) continue;
    const position = round?.calls.findIndex((call) => call.id === pending.callId) ?? -1;
    pending.id = `${reactPendingId(round?.step ?? 0, position)}@${key}`;
    pending.digest = callDigest(pending.name, pending.arguments);
  }
}

/** Absent, or two finite numbers: a poll's progress read back from a store is checked, not trusted. */
function isPollProgress(poll: unknown): boolean {
  if (poll === undefined) return true;
  return isRecord(poll) && Number.isFinite(poll.startedAt) && Number.isSafeInteger(poll.calls) && (poll.calls as number) >= 0;
}

const waitingKinds = new Set(["tool", "agent", "timer", "event"]);

/**
 * A resumed run continues the plan its state paused with: a plan given beside the state must
 * be that plan (steps added to a saved plan, or a plan swapped under it, are refused).
 */
export function checkSamePlan(state: PlanRunState, given: unknown): void {
  if (given === undefined) return;
  const read = readPlan(given);
  const saved = readPlan(state.plan);
  if (read.success && saved.success && canonicalJson(read.data) === canonicalJson(saved.data)) return;
  throw new InvalidOptionsError("resume: the plan given is not the plan the saved state paused with; pass the same plan, or none");
}
