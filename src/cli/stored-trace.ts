import type { PlanloopEvent, PlanloopEventBody } from "../core/events.js";
import type { StoredRun } from "../core/checkpoint-store.js";
import type { StepRecord } from "../plan/step-record.js";
import { previewOf } from "../core/tools/tool-output.js";

type PlanLike = {
  steps?: Array<{ id: string | number; task?: string; depends_on?: Array<string | number>; tool?: string; model?: string }>;
};

/**
 * The events of a stored run, for the trace page: a strategy's finished result carries its
 * whole trace; otherwise (a plan run, or one that has not finished) they are drawn from the
 * journal: each plan, and each step that ended, at the times its record gives.
 */
export function storedRunEvents(run: StoredRun, children: readonly StoredRun[]): PlanloopEvent[] {
  const trace = (run.result as { trace?: unknown } | undefined)?.trace;
  if (Array.isArray(trace) && trace.length > 0) return trace as PlanloopEvent[];
  const events: Array<PlanloopEventBody & { time: number }> = [];
  for (const each of [run, ...children]) {
    let plan: PlanLike = {};
    const ended = new Map<string, StepRecord>();
    for (const entry of each.journal) {
      if (entry.kind === "plan") {
        plan = entry.plan as PlanLike;
        const steps = (plan.steps ?? []).map((step) => ({
          id: step.id,
          task: step.task ?? "",
          depends_on: step.depends_on ?? [],
          ...(step.tool ? { tool: step.tool } : {}),
          ...(step.model ? { model: step.model } : {}),
        }));
        events.push({ type: "plan-created", version: entry.version, steps, time: each.createdAt });
      }
      if (entry.kind === "step-end") ended.set(entry.stepKey, entry.record as StepRecord);
    }
    for (const [key, record] of ended) {
      const step = plan.steps?.find((candidate) => String(candidate.id) === key);
      const stepId = step?.id ?? key;
      const started = each.createdAt + (record.startedAt ?? record.endedAt ?? 0);
      const endedAt = each.createdAt + (record.endedAt ?? record.startedAt ?? 0);
      if (record.startedAt !== undefined)
        events.push({ type: "step-start", stepId, kind: step?.tool ? "tool" : "agent", attempt: record.attempts, time: started });
      events.push({
        type: "step-end",
        stepId,
        status: record.status,
        attempts: record.attempts,
        durationMs: endedAt - started,
        ...(record.error === undefined ? {} : { error: record.error }),
        ...(record.status === "succeeded" ? { preview: previewOf(record.output) } : {}),
        time: endedAt,
      });
    }
  }
  return events.sort((a, b) => a.time - b.time).map((event, seq) => ({ ...event, seq }) as PlanloopEvent);
}
