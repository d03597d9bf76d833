import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, type PlanInput } from "../index.js";
import { FakeClock } from "../testing/index.js";
import { seededRandom } from "../core/seeded-random.js";
import { ReadyQueue } from "./ready-queue.js";

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

  it("a ready queue put in order again follows the new priorities", () => {
    const priorities = new Float64Array([1, 2, 3, 4]);
    const queue = new ReadyQueue(priorities);
    for (const step of [0, 1, 2, 3]) queue.push(step);
    priorities.set([9, 1, 5, 0]);
    queue.reorder();
    expect([queue.pop(), queue.pop(), queue.pop(), queue.pop(), queue.pop()]).toEqual([0, 2, 1, 3, undefined]);
  });
});
