// A run's events as a 200-step, 3-version Plan-and-Execute run would write them: steps with
// dependencies, some retried, a failure that replans, steps kept, changed, new and dropped.
import type { PlanloopEvent } from "planloop";

interface Step {
  id: number;
  task: string;
  depends_on: number[];
  tool: string;
  args: Record<string, unknown>;
}

/** Three plan versions of 70-80 steps; each keeps some steps of the one before, changes some, drops some, adds some. */
function versions(): Step[][] {
  const step = (id: number, variant = 0): Step => ({
    id,
    task: `fetch part ${id}${variant ? ` (take ${variant + 1})` : ""}`,
    depends_on: [id - 1 - (id % 3), id - 5].filter((dependency) => dependency >= 1 && dependency < id),
    tool: id % 4 === 0 ? "sql" : "http_get",
    args: { part: id, variant },
  });
  const first = Array.from({ length: 70 }, (_, index) => step(index + 1));
  const second = [
    ...first.filter((each) => each.id % 7 !== 0).map((each) => (each.id > 20 ? step(each.id, 1) : each)),
    ...Array.from({ length: 15 }, (_, index) => step(71 + index, 1)),
  ];
  const third = [
    ...second.filter((each) => each.id % 11 !== 0).map((each) => (each.id > 45 ? step(each.id, 2) : each)),
    ...Array.from({ length: 40 }, (_, index) => step(86 + index, 2)),
  ];
  return [first, second, third];
}

export function bigTrace(): { events: PlanloopEvent[]; started: number; edges: number[] } {
  const events: PlanloopEvent[] = [];
  let seq = 0;
  let now = 1_000_000;
  const push = (body: Record<string, unknown>, stepId?: number) =>
    events.push({ ...body, seq: ++seq, time: now, ...(stepId === undefined ? {} : { stepId }) } as unknown as PlanloopEvent);
  let started = 0;
  const edges: number[] = [];
  const plans = versions();
  plans.forEach((plan, index) => {
    const version = index + 1;
    push({ type: "model-call-start", step: 0, purpose: version === 1 ? "plan" : "replan" });
    now += 400;
    push({ type: "model-call-end", step: 0, purpose: version === 1 ? "plan" : "replan", decision: "final", toolCalls: 0, durationMs: 400 });
    push({ type: "plan-created", version, steps: plan });
    const ids = new Set(plan.map((each) => each.id));
    edges.push(plan.reduce((count, each) => count + each.depends_on.filter((dependency) => ids.has(dependency)).length, 0));
    const previous = index > 0 ? new Map(plans[index - 1]!.map((each) => [each.id, JSON.stringify(each)])) : new Map<number, string>();
    // Steps unchanged since the version before keep their results; the rest run, eight at a time.
    const torun = plan.filter((each) => previous.get(each.id) !== JSON.stringify(each));
    for (let batch = 0; batch < torun.length; batch += 8) {
      const group = torun.slice(batch, batch + 8);
      for (const each of group) {
        started += 1;
        push({ type: "step-start", stepId: each.id, kind: "tool", attempt: 1 }, each.id);
      }
      now += 3 + (batch % 5);
      for (const [position, each] of group.entries()) {
        if (each.id % 13 === 0) {
          push({ type: "step-retry", stepId: each.id, attempt: 1, delayMs: 2, error: "timed out" }, each.id);
          now += 4;
        }
        const fails = version < 3 && batch === 8 && position === 0;
        now += 1 + (position % 3) * 2;
        push(
          {
            type: "step-end",
            stepId: each.id,
            status: fails ? "failed" : "succeeded",
            attempts: each.id % 13 === 0 ? 2 : 1,
            durationMs: 5,
            ...(fails ? { error: "connection reset" } : { preview: `part ${each.id}` }),
          },
          each.id,
        );
      }
    }
    if (version < 3) {
      push(
        { type: "step-end", stepId: 9999, status: "skipped", attempts: 0, durationMs: 0, error: "a step it depends on did not succeed" },
        9999,
      );
      push({ type: "replan-start", replans: version, reason: `step ${torun[8]!.id} failed: connection reset` });
    }
  });
  push({
    type: "strategy-end",
    strategy: "plan-and-execute",
    status: "completed",
    usage: { modelCalls: 4, inputTokens: 9000, outputTokens: 1200, costUsd: 0.01, toolCalls: started },
    durationMs: now - 1_000_000,
  });
  return { events, started, edges };
}
