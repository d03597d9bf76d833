// End-to-end with real timers: an abort during a slow tool that ignores its signal must
// return promptly. The target is 50 ms; the assertion has a generous margin for noisy CI.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, runAgent } from "planloop";

describe("cancellation with real timers", () => {
  it("returns soon after the abort, not after the 5 s tool", async () => {
    let timer: NodeJS.Timeout | undefined;
    const slow = defineTool({
      name: "slow",
      description: "Ignores its signal and takes 5 seconds",
      input: z.object({}),
      execute: () => new Promise((resolve) => (timer = setTimeout(resolve, 5_000))),
    });
    const controller = new AbortController();
    const started = performance.now();
    const pending = runAgent({
      model: async () => ({ type: "tool_calls", calls: [{ id: 1, name: "slow", arguments: {} }] }),
      tools: [slow],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    const elapsed = performance.now() - started;
    clearTimeout(timer);
    expect(result.status).toBe("cancelled");
    expect(elapsed).toBeLessThan(20 + 400);
  });

  it("stops a plan of instant steps soon after the abort: a burst of them yields to timers", async () => {
    // Each step answers at once, so the executor runs them back to back; a timer can abort
    // the run only because a long burst gives the event loop a turn every few milliseconds.
    const instant = defineTool({ name: "instant", description: "Returns at once", input: z.object({}), execute: () => 1 });
    const steps = Array.from({ length: 100_000 }, (_, index) => ({
      id: index,
      task: "n",
      tool: "instant",
      args: {},
      depends_on: index === 0 ? [] : [index - 1],
    }));
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    const result = await executePlan({ plan: { steps }, tools: [instant], signal: controller.signal });
    const elapsed = performance.now() - started;
    expect(result.status).toBe("cancelled");
    const ran = Object.values(result.steps).filter((step) => step.status === "succeeded").length;
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThan(steps.length);
    // Checking the plan and building the result take their share of that time too.
    expect(elapsed).toBeLessThan(20 + 1_000);
  });
});
