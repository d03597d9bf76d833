// A run's events with every string and number in them replaced by markup: what a crafted
// events file can hold.
import { z } from "zod";
import { defineTool, executePlan, type PlanloopEvent } from "planloop";

export const payload = "<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>";

/** A real run's events with every string and number in them replaced by markup. */
export async function hostileEvents(): Promise<PlanloopEvent[]> {
  const tool = defineTool({ name: "t", description: "t", input: z.object({}), execute: () => "ok" });
  const events: PlanloopEvent[] = [];
  await executePlan({
    plan: {
      steps: [
        { id: 1, task: "a", tool: "t", args: {} },
        { id: 2, task: "b", tool: "t", args: {}, depends_on: [1] },
      ],
    },
    tools: [tool],
    onEvent: (event) => events.push(event),
  });
  const poison = (value: unknown, key?: string): unknown => {
    if (key === "type") return value;
    if (typeof value === "string" || typeof value === "number") return payload;
    if (Array.isArray(value)) return value.map((item) => poison(item));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, poison(item, name)]));
    }
    return value;
  };
  return [
    ...events.map((event) => poison(event) as PlanloopEvent),
    { type: "replan-start", replans: payload, reason: payload, at: 1 } as unknown as PlanloopEvent,
    { type: "model-call-start", purpose: payload, step: 0, at: 0 } as unknown as PlanloopEvent,
  ];
}
