import type { PlanloopEvent } from "../core/events.js";
import { summarizeTrace } from "./trace-model.js";

/** One entry of the Chrome trace-event format (what Perfetto and chrome://tracing open). */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: "X" | "i" | "M";
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  s?: "g" | "p" | "t";
  args?: Record<string, unknown>;
}

/**
 * A run's events as Chrome trace-event JSON: every attempt of every step a complete event on
 * its lane (a thread), model calls on a lane of their own, replans as instant events with
 * their reasons, and the lanes named. Times in microseconds from the run's start.
 */
export function perfettoTrace(
  events: readonly PlanloopEvent[],
  options: { title?: string } = {},
): { traceEvents: TraceEvent[]; displayTimeUnit: "ms" } {
  const trace = summarizeTrace(events);
  const us = (ms: number) => Math.round(ms * 1000);
  const pid = 1;
  const traceEvents: TraceEvent[] = [
    { name: "process_name", ph: "M", ts: 0, pid, tid: 0, args: { name: options.title ?? "planloop run" } },
    { name: "thread_name", ph: "M", ts: 0, pid, tid: 0, args: { name: "model calls" } },
  ];
  for (let lane = 0; lane < trace.lanes; lane += 1)
    traceEvents.push({ name: "thread_name", ph: "M", ts: 0, pid, tid: lane + 1, args: { name: `lane ${lane + 1}` } });
  for (const call of trace.modelCalls)
    traceEvents.push({
      name: call.purpose,
      cat: "model",
      ph: "X",
      ts: us(call.startedAt),
      dur: us(call.endedAt - call.startedAt),
      pid,
      tid: 0,
    });
  for (const bar of trace.bars) {
    bar.segments.forEach((segment, index) => {
      const last = index === bar.segments.length - 1;
      traceEvents.push({
        name: `step ${bar.stepId}${bar.segments.length > 1 ? ` #${index + 1}` : ""}`,
        cat: bar.tool ?? "agent",
        ph: "X",
        ts: us(segment.startedAt),
        dur: us(segment.endedAt - segment.startedAt),
        pid,
        tid: bar.lane + 1,
        args: {
          task: bar.task,
          plan: bar.version,
          status: last ? bar.status : "failed, retried",
          attempt: index + 1,
          ...(last
            ? { ...(bar.error ? { error: bar.error } : {}), ...(bar.preview ? { output: bar.preview } : {}) }
            : { error: segment.error }),
          ...(bar.args === undefined ? {} : { arguments: bar.args }),
        },
      });
    });
  }
  for (const replan of trace.replans)
    traceEvents.push({
      name: `replan ${replan.replans}${replan.dropped ? " (dropped)" : ""}`,
      cat: "replan",
      ph: "i",
      s: "g",
      ts: us(replan.at),
      pid,
      tid: 0,
      args: { reason: replan.reason },
    });
  for (const step of trace.notRun)
    traceEvents.push({
      name: `step ${step.stepId} ${step.status}`,
      cat: "not run",
      ph: "i",
      s: "p",
      ts: us(trace.durationMs),
      pid,
      tid: 0,
      args: { reason: step.reason, plan: step.version },
    });
  return { traceEvents, displayTimeUnit: "ms" };
}
