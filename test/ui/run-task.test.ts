// The runs list's "task" column is the run's own task. A plan run has none (its first step's
// task is one step's, not the run's), so it is named honestly by its plan: "a plan of 2 steps".
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, planAndExecute } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { runPage } from "../../src/ui/run-rows.js";

const double = defineTool({
  name: "double",
  description: "Double",
  input: z.object({ value: z.number() }),
  execute: ({ value }) => value * 2,
});
const plan = {
  steps: [
    { id: 1, task: "double 21", tool: "double", args: { value: 21 } },
    { id: 2, task: "double again", tool: "double", args: { value: "$1" }, depends_on: [1] },
  ],
};

describe("the runs list's task", () => {
  it("names a plan run by its plan, and a strategy run by its task", async () => {
    const store = memoryStore();
    await executePlan({ plan, tools: [double], store, runId: "plan-run" });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } },
      { purpose: "solve", reply: { type: "final", content: "84" } },
    ]);
    await planAndExecute({ task: "What is four times 21?", planner, tools: [double], store, runId: "asked" });
    const { runs } = await runPage(store, { limit: 10 });
    const tasks = Object.fromEntries(runs.map((row) => [row.runId, row.task]));
    expect(tasks).toEqual({ "plan-run": "a plan of 2 steps", asked: "What is four times 21?" });
  });
});
