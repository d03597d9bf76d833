import { nextDecisionId, pendingPosition } from "../../core/tools/approvals.js";
import type { PlanRun, StepOutcome } from "../live-run.js";
import type { PollProgress } from "../resume-state.js";
import { toolStepCallId } from "../../core/tools/approvals.js";

/*
 * A poll step calls one tool many times, and every call that needs a person asks anew: one
 * approval approves one call. Each ask gets an id no decision of this run has taken yet
 * (`step:1` for the first, then `step:1#2`, `step:1#3`…, the numbering tool-step.ts uses for a
 * call asked again), and it lapses when the poll's time is up, so the poll ends at `maxMs` even
 * while it waits.
 */

/**
 * The id a poll's call asks under: the call's own when no decision took it yet, else the next
 * after the highest this run used on the step (`step:1` used: `step:1#2`; `step:1#3` used: `step:1#4`).
 */
export function pollDecisionId(asked: string, options: { place: string; used: readonly string[] }): string {
  const { place, used } = options;
  if (!used.includes(asked)) return asked;
  let highest = 0;
  let last: string | undefined;
  for (const id of used) {
    if (!pendingPosition(id, place)) continue;
    const number = id === place ? 1 : Number(id.slice(place.length + 1));
    if (number > highest) [highest, last] = [number, id];
  }
  return nextDecisionId(place, last ?? asked);
}

/**
 * A poll's call that waits for a person, as the step's pause: under an id of its own, lapsing
 * at the poll's end (or earlier, if the tool's request lapses first), with the poll's progress.
 */
export function askedInPoll(
  run: PlanRun,
  index: number,
  outcome: StepOutcome & { status: "waiting" },
  options: { progress: PollProgress; endsAt: number },
): StepOutcome {
  const { waiting } = outcome;
  if (waiting.kind !== "tool") return outcome;
  const place = toolStepCallId(run.graph.keys[index]!);
  const id = pollDecisionId(waiting.pending.id, { place, used: run.callScope.humans.used });
  const expiresAt = Math.min(waiting.pending.expiresAt ?? Infinity, options.endsAt);
  const pending = { ...waiting.pending, id, expiresAt };
  return { ...outcome, waiting: { kind: "tool", pending, poll: { ...options.progress } } };
}
