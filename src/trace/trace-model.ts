import type { PlanloopEvent } from "../core/events.js";
import type { UsageTotals } from "../core/usage.js";
import { buildTimeline, type TimelineEntry } from "../executor/timeline.js";

/** One run of a plan step, for the chart. */
export interface TraceBar extends TimelineEntry {
  version: number;
  task: string;
  error?: string;
  /** Inner ReAct steps and tool calls of an agent step, as offsets from the run's start. */
  innerSteps: number[];
  toolCalls: Array<{ at: number; name: string; ok: boolean }>;
}

export interface TraceSummary {
  startedAt: number;
  durationMs: number;
  status: string;
  /** Why the run ended as it did, when it did not complete. */
  reason: string | undefined;
  usage: UsageTotals | undefined;
  bars: TraceBar[];
  /** Planner, solver, critic and joiner calls, outside any step. */
  modelCalls: Array<{ purpose: string; startedAt: number; endedAt: number }>;
  /** `dropped`: an early replan whose plan was not used (the planner was asked again). */
  replans: Array<{ at: number; reason: string; replans: number; dropped?: boolean }>;
  lanes: number;
}

/**
 * What a trace chart needs, read from a run's events: a bar per step that ran (lanes never
 * overlap), the model calls around the plan, the replans, totals and the final status. Pure.
 */
export function summarizeTrace(events: readonly PlanloopEvent[]): TraceSummary {
  const startedAt = events[0]?.time ?? 0;
  const at = (time: number) => time - startedAt;
  const tasks = new Map<string, string>();
  // Steps that started and have not ended yet, with what happened inside them so far.
  const open = new Map<string, { start: number; version: number; innerSteps: number[]; toolCalls: TraceBar["toolCalls"] }>();
  const ran: Array<Omit<TraceBar, "lane">> = [];
  const modelCalls: TraceSummary["modelCalls"] = [];
  const openCalls: Array<{ purpose: string; start: number }> = [];
  const replans: TraceSummary["replans"] = [];
  let version = 1;
  let status = "unknown";
  let reason: string | undefined;
  let usage: UsageTotals | undefined;

  for (const event of events) {
    const inside = event.stepId === undefined ? undefined : open.get(String(event.stepId));
    switch (event.type) {
      case "plan-created":
        version = event.version;
        for (const step of event.steps) tasks.set(`${version}:${step.id}`, step.task);
        break;
      case "step-start":
        open.set(String(event.stepId), { start: at(event.time), version, innerSteps: [], toolCalls: [] });
        break;
      case "step-end":
        if (!inside) break;
        open.delete(String(event.stepId));
        ran.push({
          stepId: String(event.stepId),
          version: inside.version,
          task: tasks.get(`${inside.version}:${event.stepId}`) ?? "",
          startedAt: inside.start,
          endedAt: at(event.time),
          status: event.status,
          attempts: event.attempts,
          ...(event.error ? { error: event.error } : {}),
          innerSteps: inside.innerSteps,
          toolCalls: inside.toolCalls,
        });
        break;
      case "agent-step-start":
        inside?.innerSteps.push(at(event.time));
        break;
      case "tool-call-end":
        inside?.toolCalls.push({ at: at(event.time), name: event.name, ok: event.status === "ok" });
        break;
      case "model-call-start":
        if (event.stepId === undefined) openCalls.push({ purpose: event.purpose, start: at(event.time) });
        break;
      case "model-call-end": {
        const call = event.stepId === undefined ? openCalls.pop() : undefined;
        if (call) modelCalls.push({ purpose: call.purpose, startedAt: call.start, endedAt: at(event.time) });
        break;
      }
      case "replan-start": {
        const previous = replans.at(-1);
        if (!event.early && previous?.replans === event.replans) previous.dropped = true;
        replans.push({ at: at(event.time), reason: event.reason, replans: event.replans });
        break;
      }
      case "run-end":
      case "agent-end":
      case "strategy-end":
        if (event.stepId === undefined) {
          status = event.status;
          usage = event.usage;
          reason = event.reason;
        }
        break;
    }
  }
  // Lanes come from the shared timeline layout; bars are matched back by position.
  const lanes = buildTimeline(ran, String);
  const bars = lanes.map((entry) => ({ ...ran[Number(entry.stepId)]!, lane: entry.lane }));
  const last = events.at(-1)?.time ?? startedAt;
  // A loop, not Math.max(...bars): spreading a few hundred thousand bars overflows the stack.
  let laneCount = 0;
  for (const bar of bars) laneCount = Math.max(laneCount, bar.lane + 1);
  return { startedAt, durationMs: last - startedAt, status, reason, usage, bars, modelCalls, replans, lanes: laneCount };
}
