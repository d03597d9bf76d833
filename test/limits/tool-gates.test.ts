// A tool's gates (issue 58): calls that write one resource (`resources(args)`) never overlap,
// whatever the plan forgot to make them depend on, while calls on other resources go on side by
// side; a tool's `limit` caps its calls across the runs that use it. A property test draws the
// resources each call writes and how long it takes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, providerLimit } from "planloop";

/** Lets other work run for `turns` turns of the event loop: a call that takes a while, without real time. */
const yieldTurns = async (turns: number) => {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

function writer() {
  const holding = new Map<string, number>();
  const overlaps: string[] = [];
  let inFlight = 0;
  let most = 0;
  const tool = defineTool({
    name: "write",
    description: "Writes rows into tables",
    input: z.object({ tables: z.array(z.string()), turns: z.number() }),
    resources: ({ tables }) => tables.map((table) => `table:${table}`),
    execute: async ({ tables, turns }) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      for (const table of new Set(tables)) {
        if ((holding.get(table) ?? 0) > 0) overlaps.push(table);
        holding.set(table, (holding.get(table) ?? 0) + 1);
      }
      await yieldTurns(turns);
      for (const table of new Set(tables)) holding.set(table, holding.get(table)! - 1);
      inFlight -= 1;
      return "written";
    },
  });
  return { tool, overlaps, most: () => most };
}

describe("a tool's gates", () => {
  it("never runs two calls that write one resource at once, for any resources and durations (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tables: fc.subarray(["orders", "refunds", "tickets", "users"], { minLength: 1 }),
            turns: fc.integer({ min: 0, max: 5 }),
          }),
          {
            minLength: 2,
            maxLength: 12,
          },
        ),
        async (calls) => {
          const { tool, overlaps } = writer();
          const plan = { steps: calls.map((args, index) => ({ id: index + 1, task: "write", tool: "write", args })) };
          const result = await executePlan({ plan, tools: [tool], concurrency: 8 });
          expect(result.status).toBe("completed");
          expect(overlaps).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 58 },
    );
  });

  it("lets calls on other resources go on side by side", async () => {
    const { tool, overlaps, most } = writer();
    const plan = {
      steps: ["orders", "refunds", "tickets", "users"].map((table, index) => ({
        id: index + 1,
        task: "write",
        tool: "write",
        args: { tables: [table], turns: 3 },
      })),
    };
    await executePlan({ plan, tools: [tool], concurrency: 8 });
    expect(overlaps).toEqual([]);
    expect(most()).toBe(4);
  });

  it("caps a tool's calls at its limit's `concurrent`, across two runs that share the tool", async () => {
    let inFlight = 0;
    let most = 0;
    const fetchPage = defineTool({
      name: "fetchPage",
      description: "Fetches a page",
      input: z.object({ page: z.number() }),
      limit: providerLimit({ name: "pages-api", concurrent: 2 }),
      execute: async ({ page }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await yieldTurns(3);
        inFlight -= 1;
        return page;
      },
    });
    const plan = { steps: [1, 2, 3, 4, 5].map((page) => ({ id: page, task: "fetch", tool: "fetchPage", args: { page } })) };
    const results = await Promise.all([executePlan({ plan, tools: [fetchPage] }), executePlan({ plan, tools: [fetchPage] })]);
    expect(results.map((result) => result.status)).toEqual(["completed", "completed"]);
    expect(most).toBe(2);
  });
});
