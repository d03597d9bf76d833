import { describe, expect, it } from "vitest";
import { openAICompatible, providerLimit, runAgent } from "../../src/index.js";

/**
 * docs/limits.md, "One cooldown": "A budget's deadline counts the wait."
 * (guard: this held)
 */
describe("a run's deadline while its call waits out a cooldown", () => {
  it("(guard, held) stops the run at its deadline, not at the cooldown's end", async () => {
    const limit = providerLimit({ name: `deadline-${Math.random()}`, rate: { requests: 1, perMs: 1_000 } });
    await limit.coolDown(30_000);
    let sent = 0;
    const fetch = (async () => {
      sent += 1;
      return new Response("{}", { status: 500 });
    }) as typeof globalThis.fetch;
    const model = openAICompatible({ baseURL: "http://provider.invalid/v1", model: "m", fetch, limit, stream: false });
    const started = performance.now();
    const result = await runAgent({ model, tools: [], task: "hi", budget: { deadlineMs: 700 } });
    const took = performance.now() - started;
    expect(sent).toBe(0);
    expect(result.status).toBe("deadline_exceeded");
    expect(took).toBeLessThan(10_000);
  });
});
