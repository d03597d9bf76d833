// An owner cut off from its store (every call it makes never answers, as behind a dropped
// network) learns it lost the run before another process could take it over: its running tool
// is aborted within the lease, and executePlan ends with LeaseLostError instead of hanging.
// Real time: the lease's own timers decide.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, LeaseLostError, memoryStore } from "planloop";
import { dyingStore } from "../helpers/dying-store.js";

describe("an owner cut off from its store", () => {
  it("aborts its calls a third of a lease before the lease could pass to another owner, and executePlan ends", async () => {
    const ttlMs = 1_500;
    const { store, die } = dyingStore(memoryStore());
    let cutAt = 0;
    let abortedAt = 0;
    let called!: () => void;
    const calling = new Promise<void>((resolve) => (called = resolve));
    const work = defineTool({
      name: "work",
      description: "works until aborted",
      input: z.object({}),
      execute: (_, { signal }) =>
        new Promise((_, reject) => {
          called();
          signal.addEventListener("abort", () => ((abortedAt = Date.now()), reject(signal.reason)), { once: true });
        }),
    });
    const run = executePlan({
      plan: { steps: [{ id: 1, task: "work", tool: "work", args: {} }] },
      tools: [work],
      store,
      runId: "cut",
      lease: { ttlMs },
    });
    const ended = run.then(
      () => "finished",
      (error: unknown) => error,
    );
    await calling;
    cutAt = Date.now();
    die();
    const outcome = await ended;
    expect(outcome).toBeInstanceOf(LeaseLostError);
    expect(abortedAt).toBeGreaterThan(0);
    // The lease was last renewed at most a third of it before the cut: it holds at least
    // two thirds more; the call was aborted before that.
    expect(abortedAt - cutAt).toBeLessThan(ttlMs);
    console.log(`cut off: the call aborted ${abortedAt - cutAt} ms after the cut (lease ${ttlMs} ms)`);
  });
});
