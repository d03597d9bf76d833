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
export function journalEvents(each: StoredRun, top: boolean): DrawnEvent[] {
  const drawing = new JournalDrawing(top);
  drawing.draw(each);
  return drawing.events;
}

/** An event as a journal draws it, with when it happened. */
export type DrawnEvent = PlanloopEventBody & { time: number };

/**
 * A run's journal drawn as it grows: each `draw` draws only the entries added since the last
 * (and the run's end once it finished), so a stream following a run of thousands of entries
 * pays a change what it appended, not the whole journal drawn again. The events so far are
 * `journalEvents` of the journal so far (test/trace/journal-drawing.test.ts): a journal only
 * grows, and a finished run's no more. An entry that kept no time is drawn at the run's last
 * write as of its draw, as a redraw then would.
 */
export class JournalDrawing {
  /** Every event drawn so far, in the journal's order. */
  readonly events: DrawnEvent[] = [];
  private entriesDrawn = 0;
  private ended = false;
  // The latest time drawn so far: where a process that stopped was last seen.
  private latest = -Infinity;
  private plan: PlanLike = {};
  // Steps started and not ended, with when: a step-start's own time, else the run's last write.
  private readonly started = new Map<string, number>();
  private pausedAt: number | undefined;
  private decided: Array<{ id: string; decision: string; at?: number }> = [];
  private readonly code = new CodeModeEvents();

  constructor(private readonly top: boolean) {}

  /** Draws the entries of `each`'s journal not drawn yet; returns how many events there were before them. */
  draw(each: StoredRun): number {
    const before = this.events.length;
    const { top, started, code } = this;
    const lastTime = () => Math.max(each.createdAt, this.latest);
    for (const entry of each.journal.slice(this.entriesDrawn)) {
      // A program run again with no pause between: the process running it stopped, and a later one took the run up.
      if (top && code.ranAgain(entry)) {
        const stoppedAt = lastTime();
        this.add({ type: "run-paused", status: "process stopped", time: stoppedAt });
        this.add({ type: "run-resumed", time: entry.kind === "code-start" && entry.at !== undefined ? entry.at : stoppedAt });
      }
      if (entry.kind === "human-decision" && this.pausedAt !== undefined) {
        this.decided.push({ id: entry.id, decision: decisionWord(entry.decision), ...(entry.at === undefined ? {} : { at: entry.at }) });
      }
      if (this.pausedAt !== undefined && entry.kind !== "paused" && entry.kind !== "human-decision") {
        // The journal goes on after a pause: a later process took the run up.
        const time = entry.kind === "step-start" && entry.at !== undefined ? entry.at : (this.decided.at(-1)?.at ?? this.pausedAt);
        this.add({ type: "run-resumed", ...(this.decided.length > 0 ? { decided: this.decided } : {}), time });
        this.pausedAt = undefined;
        this.decided = [];
      }
      if (entry.kind === "plan") {
        this.plan = entry.plan as PlanLike;
        const steps = (this.plan.steps ?? []).map((step) => ({
          id: step.id,
          task: step.task ?? "",
          depends_on: step.depends_on ?? [],
          ...(step.tool ? { tool: step.tool } : {}),
          ...(step.model ? { model: step.model } : {}),
          // As events show them: secret values masked.
          ...(step.args === undefined ? {} : { args: maskSecrets(step.args) }),
        }));
        this.add({ type: "plan-created", version: entry.version, steps, time: each.createdAt });
      } else if (entry.kind === "step-start") {
        const time = entry.at ?? each.updatedAt;
        if (started.has(entry.stepKey) && top) {
          // Started again with no end between: the process running it stopped, and a later one took the run up.
          this.add({ type: "run-paused", status: "process stopped", time: lastTime() });
          this.add({ type: "run-resumed", time });
        }
        started.set(entry.stepKey, time);
        this.add({
          type: "step-start",
          stepId: stepIdOf(this.plan, entry.stepKey),
          kind: kindOf(this.plan, entry.stepKey),
          attempt: entry.attempt,
          time,
        });
      } else if (entry.kind === "step-end") {
        const ended = { key: entry.stepKey, record: entry.record as StepRecord, startedAt: started.get(entry.stepKey), at: entry.at };
        this.add(...stepEnd(each, this.plan, ended));
        started.delete(entry.stepKey);
      } else if (entry.kind === "model-call") {
        this.add(...callEvents(entry.call, stepOfLoop(each.runId)));
      } else if (entry.kind === "code-start" || entry.kind === "code-call") {
        this.add(...code.of(entry, lastTime));
      } else if (entry.kind === "paused" && top) {
        this.pausedAt = entry.at ?? each.updatedAt;
        this.add(...code.waiting(entry.state, this.pausedAt));
        this.add({ type: "run-paused", status: entry.status ?? "waiting", time: this.pausedAt });
      }
    }
    this.entriesDrawn = each.journal.length;
    this.drawEnd(each);
    return before;
  }

  /** The run's end, once: a finished run's journal does not grow. */
  private drawEnd(each: StoredRun): void {
    const result = each.result as { status?: unknown; reason?: unknown } | undefined;
    if (this.ended || !this.top || each.status !== "finished" || typeof result?.status !== "string") return;
    this.ended = true;
    this.add({
      type: "run-end",
      status: result.status,
      usage: (result as { usage?: never }).usage ?? ({} as never),
      durationMs: each.updatedAt - each.createdAt,
      ...(typeof result.reason === "string" ? { reason: result.reason } : {}),
      time: each.updatedAt,
    });
  }

  private add(...drawn: DrawnEvent[]): void {
    for (const event of drawn) {
      this.events.push(event);
      this.latest = Math.max(this.latest, event.time);
    }
  }
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
