import { interruptedQuestion, nextDecisionId, toolStepCallId } from "../core/tools/approvals.js";
import { effectOf, type Tool } from "../core/tools/define-tool.js";
import { pausedCalls, type PlanPendingCall, type PlanRunState } from "./resume-state.js";

/**
 * What a run continued after a crash asks of the steps the crash cut short while they ran on a
 * person's decision, before any decision given now is read: a side-effecting tool's call (an
 * unknown tool counts as one) asks what became of it under a new id (`step:1#2`), so the
 * decision that started it, given again, matches nothing and is refused; another tool's call
 * waits for its decision again, under its id. Pure: returns a new state.
 */
export function askCutShortAnew(state: PlanRunState, toolsByName: ReadonlyMap<string, Tool>): PlanRunState {
  if (state.interrupted === undefined) return state;
  let waiting: PlanRunState["waiting"] | undefined;
  for (const key of state.interrupted) {
    const entry = Object.hasOwn(state.waiting, key) ? state.waiting[key] : undefined;
    if (entry?.kind !== "tool" || (entry.pending.kind !== "approval" && entry.pending.kind !== "interrupted")) continue;
    const tool = toolsByName.get(entry.pending.name);
    if (tool !== undefined && effectOf(tool) !== "side-effecting") continue;
    waiting ??= Object.assign(Object.create(null) as PlanRunState["waiting"], state.waiting);
    waiting[key] = { ...entry, pending: askedAnew(key, entry.pending) };
  }
  return waiting === undefined ? state : { ...state, waiting };
}

function askedAnew(key: string, pending: PlanPendingCall): PlanPendingCall {
  const { expiresAt: _, ...shown } = pending;
  return {
    ...shown,
    id: nextDecisionId(toolStepCallId(key), pending.id),
    kind: "interrupted",
    question: interruptedQuestion(pending.name),
  };
}

/**
 * The calls a continued run may be given decisions for: an agent step cut short after its pause
 * is left out, since its own loop's journal, not the plan's last pause, says what it asks now
 * (it is told when the run next goes on, without decisions for it).
 */
export function decidableCalls(state: PlanRunState): PlanPendingCall[] {
  const cut = new Set(state.interrupted ?? []);
  return pausedCalls(state).filter((call) => !(cut.has(String(call.stepId)) && state.waiting[String(call.stepId)]?.kind === "agent"));
}
