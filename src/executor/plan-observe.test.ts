import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan } from "planloop";

const calls: string[] = [];
const refunds = defineTool({
  name: "refunds",
  description: "refund rows",
  input: z.object({}),
  execute: () => {
    calls.push("refunds");
    return [
      { amount: 10, currency: "CNY" },
      { amount: 3, currency: "USD" },
    ];
  },
  check: (rows: Array<{ currency: string }>) => (rows.some((row) => row.currency !== "CNY") ? "some refunds are not in CNY" : undefined),
});
const sum = defineTool({ name: "sum", description: "sum", input: z.object({ rows: z.unknown() }), execute: () => calls.push("sum") });
const tickets = defineTool({
  name: "tickets",
  description: "tickets",
  input: z.object({}),
  execute: () => (calls.push("tickets"), ["late delivery", "late delivery"]),
});

describe("observing outputs", () => {
  it("a tool's check stops the steps after it, lets other branches finish, and reports the request", async () => {
    calls.length = 0;
    const plan = {
      steps: [
        { id: 1, task: "refunds", tool: "refunds" },
        { id: 2, task: "sum", tool: "sum", args: { rows: "$1" }, depends_on: [1] },
        { id: 3, task: "tickets", tool: "tickets" },
      ],
    };
    const heard: unknown[] = [];
    const result = await executePlan({ plan, tools: [refunds, sum, tickets], onProblem: (problem) => heard.push(problem) });
    expect(result.status).toBe("failed");
    expect(result.replanRequests).toEqual([{ stepId: 1, reason: "some refunds are not in CNY" }]);
    // onProblem hears the concern with the output that raised it.
    expect(heard).toEqual([
      expect.objectContaining({
        stepId: 1,
        replanRequests: [{ stepId: 1, reason: "some refunds are not in CNY" }],
        steps: expect.objectContaining({ 1: expect.objectContaining({ status: "succeeded" }) }),
      }),
    ]);
    expect(result.steps["1"]?.status).toBe("succeeded");
    expect(result.steps["2"]).toMatchObject({ status: "skipped", error: "step 1 asked for a replan: some refunds are not in CNY" });
    expect(result.steps["3"]?.status).toBe("succeeded");
    expect(calls.sort()).toEqual(["refunds", "tickets"]);
  });

  it("the observe hook can ask for a replan on new information; reused steps are not run again", async () => {
    calls.length = 0;
    const plan = {
      steps: [
        { id: "t", task: "tickets", tool: "tickets" },
        { id: "s", task: "sum", tool: "sum", args: { rows: "${t}" }, depends_on: ["t"] },
      ],
    };
    const seen: unknown[] = [];
    const first = await executePlan({
      plan,
      tools: [sum, tickets],
      observe: ({ step, output }) => {
        seen.push(step.id);
        return Array.isArray(output) && output.length > 1 ? { replan: "complaints cluster around late delivery" } : undefined;
      },
    });
    expect(first.replanRequests).toEqual([{ stepId: "t", reason: "complaints cluster around late delivery" }]);
    const second = await executePlan({ plan, tools: [sum, tickets], reuse: first.steps, planVersion: 2 });
    expect(second.status).toBe("completed");
    expect(calls).toEqual(["tickets", "sum"]);
    expect(seen).toEqual(["t"]);
  });
});

describe("acknowledged concerns", () => {
  it("do not stop the steps after a check that raises them again", async () => {
    calls.length = 0;
    const plan = {
      steps: [
        { id: 1, task: "refunds", tool: "refunds" },
        { id: 2, task: "sum", tool: "sum", args: { rows: "$1" }, depends_on: [1] },
      ],
    };
    const result = await executePlan({ plan, tools: [refunds, sum], acknowledged: ["some refunds are not in CNY"] });
    expect(result.status).toBe("completed");
    expect(result.replanRequests).toEqual([]);
    expect(calls).toEqual(["refunds", "sum"]);
  });

  it("count an observer that throws as a concern, even when what it throws cannot be turned into text", async () => {
    const plan = {
      steps: [
        { id: 1, task: "tickets", tool: "tickets" },
        { id: 2, task: "sum", tool: "sum", args: { rows: "$1" }, depends_on: [1] },
      ],
    };
    const observe = () => {
      throw { toString: null };
    };
    const result = await executePlan({ plan, tools: [tickets, sum], observe });
    expect(result.status).toBe("failed");
    expect(result.replanRequests).toEqual([{ stepId: 1, reason: "checking the output failed: [object Object]" }]);
    expect(result.steps["2"]).toMatchObject({ status: "skipped" });
  });
});
