import type { JournalEntry } from "../journal/checkpoint-store.js";
import { openDurableRun, type DurableOptions, type Opened as OpenedRun } from "../journal/checkpoints.js";
import { copyTextKeyed, textKeyed } from "../core/records.js";
import { emptyUsage, type UsageTotals } from "../core/usage.js";
import type { Plan } from "../plan/plan-schema.js";
import type { StepRecord } from "../plan/step-record.js";
import type { PlanRunResult } from "./execution-result.js";
import { createPlanState, type PlanRunState, type WaitingStep } from "./resume-state.js";

/** What the store says of a plan run about to start: nothing yet, a result, or a state to continue. */
export type Opened = OpenedRun<PlanRunResult, PlanRunState>;

/** Opens a plan run by id (see `openStoredRun`); an unfinished one continues from its journal's state. */
export function openRun(options: DurableOptions): Promise<Opened> {
  return openDurableRun(options, { name: "executePlan", rebuild: stateFromJournal });
}

/**
 * The state a run had reached by its journal: its last saved pause, then every step that
 * ended after it, with what the run had spent when the last of them ended. A step that
 * started and never ended (the process died while it ran) has no record, so it runs again
 * (a side-effecting tool's asks first: it is listed in `interrupted`, with the times it was
 * cut short in `cutShort`).
 * Undefined when the run never wrote its plan. Pure.
 */
export function stateFromJournal(journal: readonly JournalEntry[]): PlanRunState | undefined {
  let plan: Plan | undefined;
  let paused: PlanRunState | undefined;
  let pausedAt = -1;
  journal.forEach((entry, index) => {
    if (entry.kind === "plan") plan = entry.plan as Plan;
    if (entry.kind === "paused") {
      paused = entry.state as PlanRunState;
      pausedAt = index;
    }
  });
  if (plan === undefined) return undefined;
  const steps = copyTextKeyed<StepRecord>(paused?.steps);
  const waiting = copyTextKeyed<WaitingStep>(paused?.waiting);
  let totals = paused === undefined ? undefined : { usage: paused.usage, elapsedMs: paused.elapsedMs };
  // Started and never ended: the process stopped while its call ran (or was about to).
  const started = new Set<string>();
  for (const entry of journal.slice(pausedAt + 1)) {
    if (entry.kind === "step-start") started.add(entry.stepKey);
    if (entry.kind !== "step-end") continue;
    started.delete(entry.stepKey);
    if (entry.totals !== undefined) totals = entry.totals as { usage: UsageTotals; elapsedMs: number };
    steps[entry.stepKey] = entry.record as StepRecord;
    if (entry.waiting === undefined) delete waiting[entry.stepKey];
    else waiting[entry.stepKey] = entry.waiting as WaitingStep;
  }
  return createPlanState({
    plan,
    steps,
    waiting,
    usage: totals?.usage ?? emptyUsage(),
    elapsedMs: totals?.elapsedMs ?? 0,
    toolCallCounts: copyTextKeyed(paused?.toolCallCounts ?? textKeyed<number>()),
    ...(paused?.usedApprovals ? { usedApprovals: paused.usedApprovals } : {}),
    ...(started.size > 0 ? { interrupted: [...started], cutShort: timesCutShort(journal, started) } : {}),
  });
}

/**
 * How many times each step cut short now was cut short since it last ended for good: a start
 * followed by another start of the step, or by the journal's end, is one. A pause for a person
 * in between does not start the count again (a call approved to run again after each crash is
 * still a step that keeps stopping its process); an end that is not a wait does.
 */
function timesCutShort(journal: readonly JournalEntry[], now: ReadonlySet<string>): Record<string, number> {
  const times = textKeyed<number>();
  const open = new Set<string>();
  for (const entry of journal) {
    if (entry.kind === "step-start" && now.has(entry.stepKey)) {
      if (open.has(entry.stepKey)) times[entry.stepKey] = (times[entry.stepKey] ?? 0) + 1;
      open.add(entry.stepKey);
    } else if (entry.kind === "step-end" && now.has(entry.stepKey)) {
      open.delete(entry.stepKey);
      if ((entry.record as StepRecord | undefined)?.status !== "waiting") delete times[entry.stepKey];
    }
  }
  for (const key of open) times[key] = (times[key] ?? 0) + 1;
  return times;
}
