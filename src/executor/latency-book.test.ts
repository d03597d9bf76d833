import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../core/tools/define-tool.js";
import { executePlan } from "./execute-plan.js";
import { latencyBook, LatencyBook } from "./latency-book.js";

describe("latencyBook", () => {
  it("estimates a call it saw by its mean, a new call of a known tool by the tool's mean, and nothing else", () => {
    const book = latencyBook();
    book.record({ tool: "fetch", args: { url: "a", page: 1 } }, 100);
    book.record({ tool: "fetch", args: { page: 1, url: "a" } }, 50); // the same call, keys in another order
    book.record({ tool: "fetch", args: { url: "b" } }, 300);
    expect(book.estimate({ tool: "fetch", args: { url: "a", page: 1 } })).toBe(75);
    expect(book.estimate({ tool: "fetch", args: { url: "new" } })).toBeCloseTo(150);
    expect(book.estimate({ tool: "other", args: {} })).toBeUndefined();
    expect(book.estimate({ args: {} })).toBeUndefined();
    const again = latencyBook(JSON.parse(JSON.stringify(book)));
    expect(again.estimate({ tool: "fetch", args: { url: "b" } })).toBe(300);
    expect(() => latencyBook({ kind: "nope" } as never)).toThrow(/not a latency book/);
  });

  it("orders steps without estimates by what the book learned: the long branch first", async () => {
    const started: string[] = [];
    const work = defineTool({
      name: "work",
      description: "works",
      input: z.object({ name: z.string() }),
      execute: ({ name }) => (started.push(name), name),
    });
    // Two branches: one slow step, or three quick ones. By step count the three go first.
    const plan = {
      steps: [
        { id: "slow", task: "slow", tool: "work", args: { name: "slow" } },
        { id: "q1", task: "q1", tool: "work", args: { name: "q1" } },
        { id: "q2", task: "q2", tool: "work", args: { name: "q2" }, depends_on: ["q1"] },
        { id: "q3", task: "q3", tool: "work", args: { name: "q3" }, depends_on: ["q2"] },
      ],
    };
    await executePlan({ plan, tools: [work], concurrency: 1 });
    expect(started[0]).toBe("q1");
    const book = new LatencyBook();
    book.record({ tool: "work", args: { name: "slow" } }, 500);
    for (const name of ["q1", "q2", "q3"]) book.record({ tool: "work", args: { name } }, 10);
    started.length = 0;
    await executePlan({ plan, tools: [work], concurrency: 1, latencies: book });
    expect(started[0]).toBe("slow");
  });

  it("records the run's tool steps as they succeed", async () => {
    const book = latencyBook();
    const work = defineTool({ name: "work", description: "works", input: z.object({}), execute: () => 1 });
    await executePlan({ plan: { steps: [{ id: 1, task: "w", tool: "work", args: {} }] }, tools: [work], latencies: book });
    expect(book.toJSON().calls).toEqual({ "work {}": [expect.any(Number), 1] });
    await expect(
      executePlan({ plan: { steps: [{ id: 1, task: "w", tool: "work", args: {} }] }, tools: [work], latencies: {} as never }),
    ).rejects.toThrow(/latencies must be made by latencyBook/);
  });
});

describe("the latency book a store keeps", () => {
  it("a durable run learns into the store's book, and the next run in that store is ordered by it", async () => {
    const { memoryStore } = await import("../journal/memory-store.js");
    const store = memoryStore();
    const started: string[] = [];
    const work = defineTool({
      name: "work",
      description: "works",
      input: z.object({ name: z.string(), ms: z.number() }),
      execute: async ({ name, ms }) => (started.push(name), await new Promise((resolve) => setTimeout(resolve, ms)), name),
    });
    const plan = {
      steps: [
        // 1 s, not 40 ms: on a busy machine three 0 ms steps measured 40 ms and more together.
        { id: "slow", task: "slow", tool: "work", args: { name: "slow", ms: 1000 } },
        { id: "q1", task: "q1", tool: "work", args: { name: "q1", ms: 0 } },
        { id: "q2", task: "q2", tool: "work", args: { name: "q2", ms: 0 }, depends_on: ["q1"] },
        { id: "q3", task: "q3", tool: "work", args: { name: "q3", ms: 0 }, depends_on: ["q2"] },
      ],
    };
    await executePlan({ plan, tools: [work], concurrency: 1, store, runId: "first" });
    expect(started[0]).toBe("q1"); // nothing learned yet: by step count
    expect(Object.keys((store.getValue("planloop/latencies") as { calls: object }).calls)).toHaveLength(4);
    started.length = 0;
    await executePlan({ plan, tools: [work], concurrency: 1, store, runId: "second" });
    expect(started[0]).toBe("slow");
  });
});
