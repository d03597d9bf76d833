import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, type PlanInput } from "../index.js";
import { FakeClock } from "../testing/index.js";
import { seededRandom } from "../core/seeded-random.js";
import { buildPlanGraph } from "../plan/graph/plan-graph.js";
import { LearnedOrder } from "./learned-order.js";
import type { PlanRun } from "./live-run.js";
import { ReadyQueue } from "./ready-queue.js";

/** The order of a plan's steps, with the tools' own estimates. */
function orderOf(steps: PlanInput["steps"], estimates: Record<string, number> = {}): LearnedOrder {
  const plan = { steps: steps.map((step) => ({ ...step, depends_on: step.depends_on ?? [] })) };
  const toolsByName = new Map(Object.entries(estimates).map(([name, estimateMs]) => [name, { estimateMs }]));
  const run = { steps: plan.steps, graph: buildPlanGraph(plan), config: { latencies: undefined, toolsByName, order: undefined } };
  return new LearnedOrder(run as unknown as PlanRun);
}

/** 120 steps in 8 layers over four tools that take 10, 30, 60 and 100 ms; nothing says so. */
function mixedPlan(seed: number, estimates: "none" | "truth" | "count"): PlanInput {
  const random = seededRandom(seed);
  const latency = [10, 30, 60, 100];
  const steps: PlanInput["steps"] = [];
  for (let layer = 0; layer < 8; layer += 1) {
    for (let slot = 0; slot < 15; slot += 1) {
      const kind = Math.floor(random() * 4);
      const depends = layer === 0 ? [] : [...new Set([0, 1].map(() => `${layer - 1}-${Math.floor(random() * 15)}`))];
      const estimate = estimates === "truth" ? { estimateMs: latency[kind]! } : estimates === "count" ? { estimateMs: 1 } : {};
      steps.push({ id: `${layer}-${slot}`, task: "t", tool: `tool${kind}`, args: { slot }, depends_on: depends, ...estimate });
    }
  }
  return { steps };
}

async function makespan(plan: PlanInput): Promise<number> {
  const clock = new FakeClock();
  const tools = [10, 30, 60, 100].map((ms, kind) =>
    defineTool({
      name: `tool${kind}`,
      description: "t",
      input: z.object({ slot: z.number() }),
      execute: () => new Promise((resolve) => clock.setTimeout(() => resolve(ms), ms)),
    }),
  );
  const result = await clock.run(executePlan({ plan, tools, concurrency: 4, clock }));
  expect(result.status).toBe("completed");
  return Math.max(...result.timeline.map((bar) => bar.endedAt));
}

/** A plan of `service<k>` steps that each take their `args.ms` on a fake clock, at concurrency 8. */
async function serviceMakespan(plan: PlanInput): Promise<number> {
  const clock = new FakeClock();
  const tools = [0, 1, 2, 3].map((kind) =>
    defineTool({
      name: `service${kind}`,
      description: "t",
      input: z.object({ ms: z.number() }),
      execute: ({ ms }) => new Promise((resolve) => clock.setTimeout(() => resolve(ms), ms)),
    }),
  );
  const result = await clock.run(executePlan({ plan, tools, concurrency: 8, clock }));
  expect(result.status).toBe("completed");
  return Math.max(...result.timeline.map((bar) => bar.endedAt));
}

describe("the order of ready steps, learned as the run goes", () => {
  it("with no estimates, learns each tool's latency from its first step and orders the rest by it", async () => {
    let learned = 0;
    let counted = 0;
    let known = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      learned += await makespan(mixedPlan(seed, "none"));
      counted += await makespan(mixedPlan(seed, "count"));
      known += await makespan(mixedPlan(seed, "truth"));
    }
    expect(learned).toBeLessThan(counted);
    expect(learned / known).toBeLessThan(1.03);
  });

  it("weighs a slow service as slow while its first call still runs, not only once it returns", async () => {
    // Four services of 5-15, 20-40, 50-70 and 80-100 ms under 200 steps at concurrency 8: by
    // the time the slowest service's first call returns, most of the first layer has been
    // ordered. Weighted only by what returned, these plans ran 1.1-2.4% over the known order
    // (0.2-0.7% now).
    const services = [5, 20, 50, 80];
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seededRandom(seed);
      const steps: PlanInput["steps"] = [];
      for (let layer = 0; layer < 10; layer += 1) {
        for (let slot = 0; slot < 20; slot += 1) {
          const kind = Math.floor(random() * 4);
          const ms = services[kind]! + Math.floor(random() * (kind === 0 ? 11 : 21));
          const count = 1 + Math.floor(random() * 3);
          const depends = layer === 0 ? [] : [...new Set(Array.from({ length: count }, () => `${layer - 1}-${Math.floor(random() * 20)}`))];
          steps.push({ id: `${layer}-${slot}`, task: "t", tool: `service${kind}`, args: { ms }, depends_on: depends });
        }
      }
      const blind = await serviceMakespan({ steps });
      const known = await serviceMakespan({ steps: steps.map((step) => ({ ...step, estimateMs: (step.args as { ms: number }).ms })) });
      expect(blind / known).toBeLessThan(1.01);
    }
  });

  it("listens to steps only where what they take can change the order", () => {
    const step = (id: number, tool: string | undefined, estimateMs?: number) => ({
      id,
      task: "t",
      ...(tool === undefined ? {} : { tool }),
      ...(estimateMs === undefined ? {} : { estimateMs }),
    });
    // Every step known, by its own estimate or its tool's: nothing to learn.
    expect(orderOf([step(1, "a", 5), step(2, "b", 9)]).learning).toBe(false);
    expect(orderOf([step(1, "a"), step(2, "b", 9)], { a: 3 }).learning).toBe(false);
    // One tool, nothing known: learning it scales every weight alike.
    expect(orderOf([step(1, "a"), step(2, "a"), step(3, "a")]).learning).toBe(false);
    // Two tools unknown, or one unknown beside a known one: their latencies decide the order.
    expect(orderOf([step(1, "a"), step(2, "b")]).learning).toBe(true);
    expect(orderOf([step(1, "a"), step(2, "b", 9)]).learning).toBe(true);
    expect(orderOf([step(1, "a", 4), step(2, undefined)]).learning).toBe(true);
  });

  it("a ready queue put in order again follows the new priorities", () => {
    const priorities = new Float64Array([1, 2, 3, 4]);
    const queue = new ReadyQueue(priorities);
    for (const step of [0, 1, 2, 3]) queue.push(step);
    priorities.set([9, 1, 5, 0]);
    queue.reorder();
    expect([queue.pop(), queue.pop(), queue.pop(), queue.pop(), queue.pop()]).toEqual([0, 2, 1, 3, undefined]);
  });
});
