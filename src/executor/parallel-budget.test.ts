import { describe, expect, it } from "vitest";
import { executePlan, type ModelAdapter, type PlanInput } from "planloop";
import { FakeClock } from "planloop/testing";

/** Eight agent steps that can all start at once. */
const wide: PlanInput = { steps: Array.from({ length: 8 }, (_, index) => ({ id: index + 1, task: `summarize source ${index + 1}` })) };

/**
 * A model whose every call takes 10 ms and costs `cost`, and that says its worst case is
 * `worstCase` (a prompt plus its `maxOutputTokens`, priced, as the adapters compute it).
 */
function pricedModel(clock: FakeClock, options: { cost: number; worstCase?: number }) {
  let inFlight = 0;
  let mostInFlight = 0;
  const model: ModelAdapter = {
    async generate() {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await clock.sleep(10);
      inFlight -= 1;
      return { type: "final", content: "summary", usage: { inputTokens: 10, outputTokens: 10, costUsd: options.cost } };
    },
    ...(options.worstCase === undefined ? {} : { maxCallCost: () => ({ tokens: 20, costUsd: options.worstCase! }) }),
  };
  return { model, mostInFlight: () => mostInFlight };
}

describe("parallel model calls under one budget", () => {
  it("eight parallel agent steps never spend more than maxCostUsd: each call holds its worst case while it runs", async () => {
    const clock = new FakeClock();
    const { model, mostInFlight } = pricedModel(clock, { cost: 0.04, worstCase: 0.05 });
    const result = await clock.run(executePlan({ plan: wide, model, concurrency: 8, clock, budget: { maxCostUsd: 0.3 } }));
    expect(result.usage.costUsd).toBeLessThanOrEqual(0.3);
    // Six worst cases fit at once; the seventh waited for calls to settle; the eighth could not be paid for.
    expect(mostInFlight()).toBe(6);
    expect(result.status).toBe("budget_exceeded");
    expect(result.limit).toBe("maxCostUsd");
    expect(Object.values(result.steps).filter((step) => step.status === "succeeded")).toHaveLength(7);
  });

  it("a budget that pays for every call lets them all run at once", async () => {
    const clock = new FakeClock();
    const { model, mostInFlight } = pricedModel(clock, { cost: 0.04, worstCase: 0.05 });
    const result = await clock.run(executePlan({ plan: wide, model, concurrency: 8, clock, budget: { maxCostUsd: 1 } }));
    expect(result.status).toBe("completed");
    expect(mostInFlight()).toBe(8);
    expect(result.usage.costUsd).toBeCloseTo(0.32);
  });

  it("a model that cannot say its worst case is held at the dearest call the run has seen", async () => {
    const clock = new FakeClock();
    const { model } = pricedModel(clock, { cost: 0.04 });
    const chained: PlanInput = {
      steps: [{ id: "first", task: "look" }, ...wide.steps.map((step) => ({ ...step, depends_on: ["first"] }))],
    };
    const result = await clock.run(executePlan({ plan: chained, model, concurrency: 8, clock, budget: { maxCostUsd: 0.2 } }));
    // After the first call (0.04), the eight parallel ones each hold 0.04: four more fit under 0.2.
    expect(result.usage.costUsd).toBeLessThanOrEqual(0.2);
    expect(result.status).toBe("budget_exceeded");
  });
});
