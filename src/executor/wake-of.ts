import type { RunWake } from "../journal/checkpoint-store.js";
import { agentWakeAt } from "../react/wait-tool.js";
import { isStepWait, type PlanRunState } from "./resume-state.js";

/**
 * What wakes a waiting plan run, from its state: its earliest timer, event deadline, agent
 * step's `wait_until` or poll's end, and the events its steps wait for. Undefined when it waits only for people (a decision continues it).
 */
export function wakeOf(state: PlanRunState): RunWake | undefined {
  let at: number | undefined;
  const events: NonNullable<RunWake["events"]> = [];
  for (const entry of Object.values(state.waiting)) {
    // An agent step's loop that waits on `wait_until` wakes when it asked to.
    const agentAt = entry.kind === "agent" ? agentWakeAt(entry.agentState) : undefined;
    if (agentAt !== undefined) at = Math.min(at ?? Infinity, agentAt);
    // A poll's call that waits for a person lapses when the poll's time is up: the run wakes to end the step.
    const lapsesAt = entry.kind === "tool" && entry.poll !== undefined ? entry.pending.expiresAt : undefined;
    if (lapsesAt !== undefined) at = Math.min(at ?? Infinity, lapsesAt);
    if (!isStepWait(entry)) continue;
    const time = entry.kind === "timer" ? entry.until : entry.deadline;
    if (time !== undefined) at = Math.min(at ?? Infinity, time);
    if (entry.kind === "event") events.push({ name: entry.event, afterSeq: entry.afterSeq });
  }
  if (at === undefined && events.length === 0) return undefined;
  return { ...(at === undefined ? {} : { at }), ...(events.length > 0 ? { events } : {}) };
}
