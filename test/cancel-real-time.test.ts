// End-to-end with real timers: an abort during a slow tool that ignores its signal must
// return promptly. The target is 50 ms; the assertion has a generous margin for noisy CI.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runAgent } from "planloop";

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
});
