import type { PlanloopEvent } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import { buildTimeline, type TimelineEntry } from "../plan/timeline.js";

/** One attempt of a step: a retried step has several, with the wait between them. */
export interface TraceAttempt {
  startedAt: number;
  endedAt: number;
  /** Why this attempt failed, for every attempt but the last. */
  error?: string;
}

/** One run of a plan step, for the chart and its details. */
export interface TraceBar extends TimelineEntry {
  version: number;
  task: string;
  tool?: string;
  model?: string;
  args?: unknown;
  error?: string;
  /** A preview of the output, for a step that succeeded. */
  preview?: string;
  segments: TraceAttempt[];
  /** Inner ReAct steps and tool calls of an agent step, as offsets from the run's start. */
  innerSteps: number[];
  toolCalls: Array<{ at: number; name: string; ok: boolean }>;
  modelCalls: Array<{ purpose: string; startedAt: number; endedAt: number }>;
}

/** A step that ended without starting: skipped, cancelled, or still waiting. */
export interface TraceNotRun {
  stepId: string;
  version: number;
  task: string;
  status: string;
  reason: string;
}

/** A plan version as its `plan-created` event describes it. */
export interface TracePlanVersion {
  version: number;
  at: number;
  steps: Array<{ id: string; task: string; depends_on: string[]; tool?: string; model?: string; args?: unknown }>;
  /** Code mode: the program (version 1, then each repair); its steps are the calls it made, as they started. */
  program?: string;
}

export interface TraceSummary {
  startedAt: number;
  durationMs: number;
  status: string;
  /** Why the run ended as it did, when it did not complete. */
  reason: string | undefined;
  usage: UsageTotals | undefined;
  bars: TraceBar[];
  notRun: TraceNotRun[];
  versions: TracePlanVersion[];
  /** Planner, solver, critic and joiner calls, outside any step. */
  modelCalls: Array<{ purpose: string; startedAt: number; endedAt: number }>;
  /** `dropped`: an early replan whose plan was not used (the planner was asked again). */
  replans: Array<{ at: number; reason: string; replans: number; dropped?: boolean }>;
  /** Where a stored run stopped (waiting for a person, or its process gone) and was continued later. */
  pauses: Array<{ at: number; status: string; resumedAt?: number; decided?: Array<{ id: string; decision: string; at?: number }> }>;
  /** What the run's grounding found in its answer (`grounding-end`). */
  grounding?: Omit<Extract<PlanloopEvent, { type: "grounding-end" }>, "type" | "seq" | "time" | "stepId" | "inner">;
  lanes: number;
}

interface OpenStep {
  start: number;
  version: number;
  segments: TraceAttempt[];
  segmentStart: number;
  innerSteps: number[];
  toolCalls: TraceBar["toolCalls"];
  modelCalls: TraceBar["modelCalls"];
  openModelCalls: Array<{ purpose: string; start: number }>;
}

/**
 * What a trace page needs, read from a run's events: a bar per step that ran (lanes never
 * overlap) with each attempt, the steps that never started and why, every plan version, the
 * model calls around the plan, the replans, totals and the final status. Pure.
 */
export function summarizeTrace(events: readonly PlanloopEvent[]): TraceSummary {
  const startedAt = events[0]?.time ?? 0;
  const at = (time: number) => time - startedAt;
  const versions: TracePlanVersion[] = [];
  const stepsOf = new Map<string, TracePlanVersion["steps"][number]>();
  // Steps that started and have not ended yet, with what happened inside them so far.
  const open = new Map<string, OpenStep>();
  const ran: Array<Omit<TraceBar, "lane">> = [];
  const notRun: TraceNotRun[] = [];
  const modelCalls: TraceSummary["modelCalls"] = [];
  const openCalls: Array<{ purpose: string; start: number }> = [];
  const replans: TraceSummary["replans"] = [];
  let version = 1;
  const pauses: TraceSummary["pauses"] = [];
  let grounding: TraceSummary["grounding"];
  let ended = false;
  let status = "running";
  let reason: string | undefined;
  let usage: UsageTotals | undefined;

  for (const event of events) {
    const inside = event.stepId === undefined ? undefined : open.get(String(event.stepId));
    switch (event.type) {
      case "plan-created": {
        version = event.version;
        const steps = (Array.isArray(event.steps) ? event.steps : []).map((step) => ({
          id: String(step.id),
          task: String(step.task ?? ""),
          depends_on: (Array.isArray(step.depends_on) ? step.depends_on : []).map(String),
          ...(step.tool === undefined ? {} : { tool: String(step.tool) }),
          ...(step.model === undefined ? {} : { model: String(step.model) }),
          ...(step.args === undefined ? {} : { args: step.args }),
        }));
        for (const step of steps) stepsOf.set(`${version}:${step.id}`, step);
        const program = typeof event.program === "string" ? { program: event.program } : {};
        // A program run again (resumed after a decision) is the same version: listed once.
        if (program.program === undefined || !versions.some((each) => each.version === version && each.program === program.program))
          versions.push({ version, at: at(event.time), steps, ...program });
        break;
      }
      case "step-start":
        if (event.stepId !== undefined && event.tool !== undefined) madeStep(event, { version, versions, stepsOf });
        if (event.stepId !== undefined && !inside)
          open.set(String(event.stepId), {
            start: at(event.time),
            version,
            segments: [],
            segmentStart: at(event.time),
            innerSteps: [],
            toolCalls: [],
            modelCalls: [],
            openModelCalls: [],
          });
        break;
      case "step-retry":
        if (!inside) break;
        inside.segments.push({ startedAt: inside.segmentStart, endedAt: at(event.time), error: String(event.error) });
        inside.segmentStart = at(event.time) + Math.max(0, Number(event.delayMs) || 0);
        break;
      case "step-end": {
        const key = String(event.stepId);
        if (!inside) {
          const planned = stepsOf.get(`${version}:${key}`);
          notRun.push({ stepId: key, version, task: planned?.task ?? "", status: String(event.status), reason: String(event.error ?? "") });
          break;
        }
        open.delete(key);
        const planned = stepsOf.get(`${inside.version}:${key}`);
        const end = at(event.time);
        ran.push({
          stepId: key,
          version: inside.version,
          ...plannedFields(planned),
          startedAt: inside.start,
          endedAt: end,
          status: event.status,
          attempts: event.attempts,
          ...(event.error ? { error: event.error } : {}),
          ...(event.preview === undefined ? {} : { preview: event.preview }),
          segments: [...inside.segments, { startedAt: Math.min(inside.segmentStart, end), endedAt: end }],
          innerSteps: inside.innerSteps,
          toolCalls: inside.toolCalls,
          modelCalls: inside.modelCalls,
        });
        break;
      }
      case "agent-step-start":
        inside?.innerSteps.push(at(event.time));
        break;
      case "tool-call-end":
        inside?.toolCalls.push({ at: at(event.time), name: event.name, ok: event.status === "ok" });
        break;
      case "model-call-start":
        if (event.stepId === undefined) openCalls.push({ purpose: event.purpose, start: at(event.time) });
        else inside?.openModelCalls.push({ purpose: event.purpose, start: at(event.time) });
        break;
      case "model-call-end": {
        const calls = event.stepId === undefined ? openCalls : inside?.openModelCalls;
        const call = calls?.pop();
        const into = event.stepId === undefined ? modelCalls : inside?.modelCalls;
        if (call) into?.push({ purpose: call.purpose, startedAt: call.start, endedAt: at(event.time) });
        break;
      }
      case "grounding-end":
        if (event.inner !== true) {
          const { type: _type, seq: _seq, time: _time, stepId: _stepId, inner: _inner, ...found } = event;
          grounding = found;
        }
        break;
      case "replan-start": {
        const previous = replans.at(-1);
        if (!event.early && previous?.replans === event.replans) previous.dropped = true;
        replans.push({ at: at(event.time), reason: event.reason, replans: event.replans });
        break;
      }
      case "run-paused":
        pauses.push({ at: at(event.time), status: event.status });
        break;
      case "run-resumed": {
        const pause = pauses.at(-1);
        if (pause !== undefined && pause.resumedAt === undefined) {
          pause.resumedAt = at(event.time);
          if (event.decided?.length)
            pause.decided = event.decided.map((each) => ({ ...each, ...(each.at === undefined ? {} : { at: at(each.at) }) }));
        }
        // What was running when the process stopped is an attempt cut short there.
        for (const [key, step] of open) {
          ran.push(openBar(key, step, { end: pause?.at ?? at(event.time), status: "interrupted" }, stepsOf));
          open.delete(key);
        }
        break;
      }
      case "run-end":
      case "agent-end":
      case "strategy-end":
        if (event.stepId === undefined) {
          ended = true;
          status = event.status;
          usage = event.usage;
          reason = event.reason;
        }
        break;
    }
  }
  const last = events.at(-1)?.time ?? startedAt;
  // A run not ended yet: its steps still running are drawn up to now (its last event).
  if (!ended) for (const [key, step] of open) ran.push(openBar(key, step, { end: at(last), status: "running" }, stepsOf));
  if (!ended && pauses.length > 0 && pauses.at(-1)!.resumedAt === undefined) status = pauses.at(-1)!.status;
  // Lanes come from the shared timeline layout; bars are matched back by position.
  const lanes = buildTimeline(ran, String);
  const bars = lanes.map((entry) => ({ ...ran[Number(entry.stepId)]!, lane: entry.lane }));
  // A loop, not Math.max(...bars): spreading a few hundred thousand bars overflows the stack.
  let laneCount = 0;
  for (const bar of bars) laneCount = Math.max(laneCount, bar.lane + 1);
  return {
    startedAt,
    durationMs: last - startedAt,
    status,
    reason,
    usage,
    bars,
    notRun,
    versions,
    modelCalls,
    replans,
    pauses,
    ...(grounding ? { grounding } : {}),
    lanes: laneCount,
  };
}

/** A step that has not ended (still running, or cut short by its process stopping), as a bar up to `end`. */
function openBar(
  key: string,
  step: OpenStep,
  until: { end: number; status: "running" | "interrupted" },
  stepsOf: ReadonlyMap<string, TracePlanVersion["steps"][number]>,
): Omit<TraceBar, "lane"> {
  const { end, status } = until;
  const planned = stepsOf.get(`${step.version}:${key}`);
  return {
    stepId: key,
    version: step.version,
    ...plannedFields(planned),
    startedAt: step.start,
    endedAt: Math.max(end, step.start),
    status,
    attempts: step.segments.length + 1,
    ...(status === "interrupted" ? { error: "its process stopped while it ran" } : {}),
    segments: [...step.segments, { startedAt: Math.min(step.segmentStart, end), endedAt: Math.max(end, step.start) }],
    innerSteps: step.innerSteps,
    toolCalls: step.toolCalls,
    modelCalls: step.modelCalls,
  };
}

/**
 * A step no plan listed before it started (a code-mode program's call): added to its version's
 * steps, with its tool and arguments and the call as its task, once.
 */
function madeStep(
  event: Extract<PlanloopEvent, { type: "step-start" }>,
  into: { version: number; versions: TracePlanVersion[]; stepsOf: Map<string, TracePlanVersion["steps"][number]> },
): void {
  const id = String(event.stepId);
  const key = `${into.version}:${id}`;
  if (into.stepsOf.has(key)) return;
  const tool = String(event.tool);
  const step = { id, task: callText(tool, event.args), depends_on: [], tool, ...(event.args === undefined ? {} : { args: event.args }) };
  into.stepsOf.set(key, step);
  into.versions.findLast((each) => each.version === into.version)?.steps.push(step);
}

/** A call as a program writes it: `tools.search({"q":"x"})`, long arguments cut. */
function callText(tool: string, args: unknown): string {
  const text = JSON.stringify(args ?? {}) ?? "";
  return `tools.${tool}(${text.length > 120 ? `${text.slice(0, 119)}…` : text})`;
}

/** What a bar shows of its step as the plan wrote it. */
function plannedFields(planned: TracePlanVersion["steps"][number] | undefined): Pick<TraceBar, "task" | "tool" | "model" | "args"> {
  return {
    task: planned?.task ?? "",
    ...(planned?.tool === undefined ? {} : { tool: planned.tool }),
    ...(planned?.model === undefined ? {} : { model: planned.model }),
    ...(planned?.args === undefined ? {} : { args: planned.args }),
  };
}
