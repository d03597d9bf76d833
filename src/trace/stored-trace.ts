import type { PlanloopEvent, PlanloopEventBody } from "../core/events.js";
import type { StoredRun } from "../journal/checkpoint-store.js";
import type { KeptModelCall } from "../journal/model-calls.js";
import type { StepRecord } from "../plan/step-record.js";
import { previewOf } from "../core/tools/tool-output.js";
import { maskSecrets } from "../trust/secrets.js";
import { CodeModeEvents } from "./code-mode-events.js";

type PlanLike = {
  steps?: Array<{ id: string | number; task?: string; depends_on?: Array<string | number>; tool?: string; model?: string; args?: unknown }>;
};

/**
 * The events of a stored run, for the trace page: a strategy's finished result carries its
 * whole trace; otherwise (a plan run, or one that has not finished) they are drawn from the
 * journal: each plan, each step as it started and ended, the steps still running, where the
 * run paused (waiting, or its process gone) and where it went on, and how it ended.
 */
export function storedRunEvents(run: StoredRun, children: readonly StoredRun[]): PlanloopEvent[] {
  const trace = (run.result as { trace?: unknown } | undefined)?.trace;
  // A finished strategy's own trace is its last process's: a run that was continued is drawn from its journal whole.
  if (Array.isArray(trace) && trace.length > 0 && ![run, ...children].some(wasContinued)) return trace as PlanloopEvent[];
  const events: Array<PlanloopEventBody & { time: number }> = [];
  for (const each of [run, ...children]) events.push(...journalEvents(each, each === run));
  // Stable: events at the same time keep the journal's order (a start before its end).
  return events
    .map((event, order) => ({ event, order }))
    .sort((a, b) => a.event.time - b.event.time || a.order - b.order)
    .map(({ event }, seq) => ({ ...event, seq }) as PlanloopEvent);
}

/**
 * One run's journal as events, in the journal's order (each with the wall-clock time it is drawn
 * at). The events of a journal's first entries are the first events of the whole journal's: a
 * stream that sent some of them goes on from how many it sent. `top`: the run itself, not one
 * kept inside it (its pauses and its end are drawn).
 */
export function journalEvents(each: StoredRun, top: boolean): Array<PlanloopEventBody & { time: number }> {
  const events: Array<PlanloopEventBody & { time: number }> = [];
  let plan: PlanLike = {};
  // Steps started and not ended, with when: a step-start's own time, else the run's last write.
  const started = new Map<string, number>();
  let pausedAt: number | undefined;
  let decided: Array<{ id: string; decision: string; at?: number }> = [];
  const code = new CodeModeEvents();
  for (const entry of each.journal) {
    // A program run again with no pause between: the process running it stopped, and a later one took the run up.
    if (top && code.ranAgain(entry)) {
      const stoppedAt = lastTime(events, each.createdAt);
      events.push({ type: "run-paused", status: "process stopped", time: stoppedAt });
      events.push({ type: "run-resumed", time: entry.kind === "code-start" && entry.at !== undefined ? entry.at : stoppedAt });
    }
    if (entry.kind === "human-decision" && pausedAt !== undefined) {
      decided.push({ id: entry.id, decision: decisionWord(entry.decision), ...(entry.at === undefined ? {} : { at: entry.at }) });
    }
    if (pausedAt !== undefined && entry.kind !== "paused" && entry.kind !== "human-decision") {
      // The journal goes on after a pause: a later process took the run up.
      const time = entry.kind === "step-start" && entry.at !== undefined ? entry.at : (decided.at(-1)?.at ?? pausedAt);
      events.push({ type: "run-resumed", ...(decided.length > 0 ? { decided } : {}), time });
      pausedAt = undefined;
      decided = [];
    }
    if (entry.kind === "plan") {
      plan = entry.plan as PlanLike;
      const steps = (plan.steps ?? []).map((step) => ({
        id: step.id,
        task: step.task ?? "",
        depends_on: step.depends_on ?? [],
        ...(step.tool ? { tool: step.tool } : {}),
        ...(step.model ? { model: step.model } : {}),
        // As events show them: secret values masked.
        ...(step.args === undefined ? {} : { args: maskSecrets(step.args) }),
      }));
      events.push({ type: "plan-created", version: entry.version, steps, time: each.createdAt });
    } else if (entry.kind === "step-start") {
      const time = entry.at ?? each.updatedAt;
      if (started.has(entry.stepKey) && top) {
        // Started again with no end between: the process running it stopped, and a later one took the run up.
        events.push({ type: "run-paused", status: "process stopped", time: lastTime(events, each.createdAt) });
        events.push({ type: "run-resumed", time });
      }
      started.set(entry.stepKey, time);
      events.push({
        type: "step-start",
        stepId: stepIdOf(plan, entry.stepKey),
        kind: kindOf(plan, entry.stepKey),
        attempt: entry.attempt,
        time,
      });
    } else if (entry.kind === "step-end") {
      events.push(
        ...stepEnd(each, plan, {
          key: entry.stepKey,
          record: entry.record as StepRecord,
          startedAt: started.get(entry.stepKey),
          at: entry.at,
        }),
      );
      started.delete(entry.stepKey);
    } else if (entry.kind === "model-call") {
      events.push(...callEvents(entry.call, stepOfLoop(each.runId)));
    } else if (entry.kind === "code-start" || entry.kind === "code-call") {
      // The latest time so far only for an entry that kept none: looked up for every entry, it would cost O(n²).
      events.push(...code.of(entry, () => lastTime(events, each.createdAt)));
    } else if (entry.kind === "paused" && top) {
      pausedAt = entry.at ?? each.updatedAt;
      events.push(...code.waiting(entry.state, pausedAt));
      events.push({ type: "run-paused", status: entry.status ?? "waiting", time: pausedAt });
    }
  }
  const result = each.result as { status?: unknown; reason?: unknown } | undefined;
  if (top && each.status === "finished" && typeof result?.status === "string")
    events.push({
      type: "run-end",
      status: result.status,
      usage: (result as { usage?: never }).usage ?? ({} as never),
      durationMs: each.updatedAt - each.createdAt,
      ...(typeof result.reason === "string" ? { reason: result.reason } : {}),
      time: each.updatedAt,
    });
  return events;
}

/** A step's end, and its start when the journal had none with a time (a journal written before step starts kept one). */
function stepEnd(
  each: StoredRun,
  plan: PlanLike,
  ended: { key: string; record: StepRecord; startedAt: number | undefined; at: number | undefined },
): Array<PlanloopEventBody & { time: number }> {
  const { key, record, startedAt } = ended;
  const stepId = stepIdOf(plan, key);
  const length = record.startedAt !== undefined && record.endedAt !== undefined ? record.endedAt - record.startedAt : 0;
  const start = startedAt ?? each.createdAt + (record.startedAt ?? record.endedAt ?? 0);
  // Its own wall-clock end where the journal kept one: a pause written after it is never drawn before it.
  const end = ended.at ?? (startedAt !== undefined ? startedAt + length : each.createdAt + (record.endedAt ?? record.startedAt ?? 0));
  const events: Array<PlanloopEventBody & { time: number }> = [];
  if (startedAt === undefined && record.startedAt !== undefined)
    events.push({ type: "step-start", stepId, kind: kindOf(plan, key), attempt: record.attempts, time: start });
  events.push({
    type: "step-end",
    stepId,
    status: record.status,
    attempts: record.attempts,
    durationMs: end - start,
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(record.status === "succeeded" ? { preview: previewOf(record.output) } : {}),
    time: end,
  });
  return events;
}

/** A decision in a few words: approved (an edited plan says so), denied (with its reason), answered (with the answer). */
export function decisionWord(decision: unknown): string {
  const given = decision as { approved?: boolean; reason?: string; answer?: string; plan?: unknown } | null;
  if (typeof given?.answer === "string") return `answered ${JSON.stringify(given.answer)}`;
  if (given?.approved) return given.plan === undefined ? "approved" : "approved an edited plan";
  return `denied${given?.reason ? ` (${given.reason})` : ""}`;
}

/**
 * Whether a later process went on with the run: it paused and more came after, a step started
 * again with no end between, or a program ran again.
 */
function wasContinued(run: StoredRun): boolean {
  const open = new Set<string>();
  const programs = new Set<number>();
  let paused = false;
  for (const entry of run.journal) {
    if (entry.kind === "paused") paused = true;
    else if (paused && entry.kind !== "human-decision") return true;
    if (entry.kind === "code-start") {
      if (programs.has(entry.attempt)) return true;
      programs.add(entry.attempt);
    }
    if (entry.kind === "step-start") {
      if (open.has(entry.stepKey)) return true;
      open.add(entry.stepKey);
    } else if (entry.kind === "step-end") open.delete(entry.stepKey);
  }
  return false;
}

/** The step an agent step's loop belongs to, by the loop's run id (`<plan run>/<step>`, the plan run being `<id>/plan:<v>`). */
function stepOfLoop(runId: string): string | undefined {
  return /\/plan:\d+\/([^/]+)$/.exec(runId)?.[1];
}

/** A kept model call as the events a live run would have made of it. */
function callEvents(call: KeptModelCall, stepId: string | undefined): Array<PlanloopEventBody & { time: number }> {
  const inStep = stepId === undefined ? {} : { stepId };
  const decision = call.error !== undefined ? "failed" : call.answer?.toolCalls ? "tool_calls" : "final";
  return [
    {
      type: "model-call-start",
      step: call.step,
      purpose: call.purpose,
      ...(call.model ? { model: call.model } : {}),
      ...inStep,
      time: call.at,
    },
    {
      type: "model-call-end",
      step: call.step,
      purpose: call.purpose,
      decision,
      toolCalls: call.answer?.toolCalls?.length ?? 0,
      durationMs: call.durationMs,
      ...(call.usage ? { usage: call.usage } : {}),
      ...inStep,
      time: call.at + call.durationMs,
    },
  ];
}

/** The latest time of the events so far: where a process that stopped was last seen. */
function lastTime(events: ReadonlyArray<{ time: number }>, from: number): number {
  let latest = from;
  for (const event of events) latest = Math.max(latest, event.time);
  return latest;
}

type PlanStep = NonNullable<PlanLike["steps"]>[number];
/** Each plan's steps by key, made once per plan: a run of 50,000 steps looks each one up in O(1), not O(n). */
const stepsByKey = new WeakMap<PlanLike, Map<string, PlanStep>>();
const stepOf = (plan: PlanLike, key: string) => {
  let byKey = stepsByKey.get(plan);
  if (byKey === undefined) {
    byKey = new Map((plan.steps ?? []).map((step) => [String(step.id), step]));
    stepsByKey.set(plan, byKey);
  }
  return byKey.get(key);
};
const stepIdOf = (plan: PlanLike, key: string) => stepOf(plan, key)?.id ?? key;
const kindOf = (plan: PlanLike, key: string): "tool" | "agent" => (stepOf(plan, key)?.tool ? "tool" : "agent");
