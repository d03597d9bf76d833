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
 * (a side-effecting tool's asks first: it is listed in `interrupted`, with the times in a row
 * it was cut short in `cutShort`).
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
  // Started and never ended: the process stopped while its call ran (or was about to). Starts
  // in a row without an end are crashes in a row under the step (see `maxRecoveries`).
  const started = new Map<string, number>();
  for (const entry of journal.slice(pausedAt + 1)) {
    if (entry.kind === "step-start") started.set(entry.stepKey, (started.get(entry.stepKey) ?? 0) + 1);
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
    ...(started.size > 0 ? { interrupted: [...started.keys()], cutShort: Object.fromEntries(started) } : {}),
  });
}
