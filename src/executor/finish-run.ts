import { cappedList } from "../core/errors.js";
import { cancelReason } from "../core/run-signal.js";
import { stepKey } from "../plan/plan-schema.js";
import { transition } from "./step/run-step.js";
import { agentWakeAt } from "../react/wait-tool.js";
import type { PlanRunResult, PlanWait, PlanRunResultFields, PlanRunStatus, StepRecord } from "./execution-result.js";
import { finalRecord, isMissing, type PlanRun } from "./live-run.js";
import { callsOf, createPlanState, isStepWait, type WaitingStep } from "./resume-state.js";
import { buildTimeline } from "../plan/timeline.js";
import { copyTextKeyed, textKeyed } from "../core/records.js";
import { signState } from "../trust/state-signature.js";

/**
 * Ends the run: every step that never started gets its status and reason, the run's status
 * is chosen (cancelled, deadline, budget, waiting, failed, completed, in that precedence),
 * and the result carries the plan's output, a timeline and, unless completed, the state.
 */
export function finishPlanRun(run: PlanRun): PlanRunResult {
  const stop = stopReason(run);
  settleLeftovers(run, stop?.reason);
  const records = run.records.map(finalRecord);
  const missing = missingSteps(run);
  const allSucceeded =
    records.every((record, index) => record.status === "succeeded" || isMissing(run, index)) && run.streamProblems.length === 0;
  const status =
    stop?.status ?? (records.some((record) => record.status === "waiting") ? "waiting" : allSucceeded ? "completed" : "failed");
  const steps = textKeyed<StepRecord>();
  for (let index = 0; index < records.length; index += 1) steps[run.graph.keys[index]!] = records[index]!;
  const result: PlanRunResultFields = {
    status,
    runId: run.runId,
    plan: run.config.plan,
    planVersions: [run.config.plan],
    steps,
    usage: run.budget.spent,
    replans: 0,
    replanRequests: run.replanRequests,
    timeline: [],
  };
  lazyTimeline(result, records, run.graph.keys);
  const output = planOutput(run);
  if (output.found) result.output = output.value;
  const reason = stop?.reason ?? failureSummary(run, status);
  if (reason !== undefined) result.reason = reason;
  if (stop?.limit !== undefined) result.limit = stop.limit;
  const pending = [...run.waiting.values()].flatMap(callsOf);
  if (pending.length > 0 || status === "waiting") result.pending = pending;
  const waits = stepWaits(run);
  if (waits.length > 0) result.waits = waits;
  if (missing.length > 0) result.missing = missing;
  if (status !== "completed") result.state = signState(snapshot(run, steps), run.config.stateSecret, run.runId);
  run.events.emit({ type: "run-end", status, usage: result.usage, durationMs: run.elapsed(), ...(reason ? { reason } : {}) });
  // Built field by field above; the status decided which fields are set (see PlanRunResult).
  return result as PlanRunResult;
}

/**
 * The timeline is laid out when it is first read, not when the run ends: most callers never
 * read it, and for a plan of a hundred thousand steps it is as many objects again. It stays
 * an enumerable field, so JSON, spreads and structured clones see it as any other.
 */
function lazyTimeline(result: PlanRunResultFields, records: readonly StepRecord[], keys: readonly string[]): void {
  let timeline: PlanRunResultFields["timeline"] | undefined;
  Object.defineProperty(result, "timeline", {
    enumerable: true,
    configurable: true,
    get: () => (timeline ??= buildTimeline(records, (index) => keys[index]!)),
    set: (value: PlanRunResultFields["timeline"]) => {
      timeline = value;
    },
  });
}

type RunStop = { status: PlanRunStatus; reason: string; limit?: PlanRunResult["limit"] };

function stopReason(run: PlanRun): RunStop | undefined {
  const cause = run.abortCause();
  if (cause === "cancelled") return { status: "cancelled", reason: cancelReason(run.config.signal) };
  if (cause === "deadline") {
    return {
      status: "deadline_exceeded",
      limit: "deadlineMs",
      reason: `the run's deadline of ${run.budget.limits.deadlineMs ?? "the enclosing run"} ms passed`,
    };
  }
  const breach = run.budgetBreach ?? run.budget.breach();
  const unfinished = run.records.some((record) => record.status !== "succeeded");
  if (breach && unfinished) return { status: "budget_exceeded", limit: breach.limit, reason: breach.message };
  return undefined;
}

function settleLeftovers(run: PlanRun, stopped: string | undefined): void {
  const blockedBy = (index: number): number | undefined =>
    run.graph.dependencies.list(index).find((need) => run.records[need]!.status === "waiting");
  run.records.forEach((record, index) => {
    if (record.status !== undefined) return;
    const waitingOn = blockedBy(index);
    if (stopped !== undefined) transition(run, index, { status: "skipped", error: `not started: ${stopped}` });
    else if (waitingOn !== undefined) transition(run, index, { status: "waiting", error: `waits for step ${run.steps[waitingOn]!.id}` });
    else transition(run, index, { status: "skipped", error: "not started: a step it depends on did not succeed" });
  });
}

function planOutput(run: PlanRun): { found: boolean; value?: unknown } {
  const sinks = run.graph.sinks.filter((index) => run.records[index]!.status === "succeeded");
  if (sinks.length === 0) return { found: false };
  if (run.graph.sinks.length === 1) return { found: true, value: run.records[sinks[0]!]!.output };
  // Key by key rather than through entry pairs: a wide plan has as many sinks as steps.
  const value: Record<string, unknown> = {};
  for (const index of sinks) {
    const key = run.graph.keys[index]!;
    const output = run.records[index]!.output;
    if (key === "__proto__") Object.defineProperty(value, key, { value: output, enumerable: true, writable: true, configurable: true });
    else value[key] = output;
  }
  return { found: true, value };
}

/** The wait steps the run waits on, as the result lists them. */
function stepWaits(run: PlanRun): PlanWait[] {
  const waits: PlanWait[] = [];
  for (const [index, entry] of run.waiting) {
    const stepId = run.steps[index]!.id;
    const agentAt = entry.kind === "agent" ? agentWakeAt(entry.agentState) : undefined;
    if (agentAt !== undefined) waits.push({ stepId, kind: "timer", until: new Date(agentAt).toISOString() });
    if (!isStepWait(entry)) continue;
    if (entry.kind === "timer") {
      const polls = entry.poll === undefined ? {} : { polls: entry.poll.calls };
      waits.push({ stepId, kind: "timer", until: new Date(entry.until).toISOString(), ...polls });
    } else {
      const { event, match, deadline } = entry;
      waits.push({
        stepId,
        kind: "event",
        event,
        ...(match ? { match } : {}),
        ...(deadline === undefined ? {} : { deadline: new Date(deadline).toISOString() }),
      });
    }
  }
  return waits;
}

/** The ids of the optional steps that failed, in plan order. */
function missingSteps(run: PlanRun): Array<string | number> {
  const missing: Array<string | number> = [];
  for (let index = 0; index < run.records.length; index += 1) if (isMissing(run, index)) missing.push(run.steps[index]!.id);
  return missing;
}

function failureSummary(run: PlanRun, status: PlanRunStatus): string | undefined {
  if (status === "completed") return undefined;
  const failed = run.records.flatMap((record, index) =>
    record.status === "failed" && !isMissing(run, index) ? [`step ${run.steps[index]!.id}: ${record.error}`] : [],
  );
  const requests = run.replanRequests.map((request) => `step ${request.stepId} asked for a replan: ${request.reason}`);
  if (status === "failed") return listProblems([...run.streamProblems, ...failed, ...requests]);
  return `waiting for ${run.waiting.size} step(s)`;
}

/** The first problems in full; past those, how many more (each step's record has its own). */
function listProblems(problems: readonly string[]): string {
  return cappedList(problems, (count) => `and ${count} more (see each step's error)`).join("; ");
}

function snapshot(run: PlanRun, steps: Record<string, StepRecord>) {
  const waiting = textKeyed<WaitingStep>();
  for (const [index, entry] of run.waiting) waiting[stepKey(run.steps[index]!.id)] = entry;
  return createPlanState({
    plan: run.config.plan,
    steps,
    waiting,
    usage: run.budget.spent,
    elapsedMs: run.elapsed(),
    toolCallCounts: copyTextKeyed(run.toolCallCounts),
    ...(run.callScope.humans.used.length > 0 ? { usedApprovals: [...run.callScope.humans.used] } : {}),
  });
}
