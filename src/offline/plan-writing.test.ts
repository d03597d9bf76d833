import { describe, expect, it } from "vitest";
import { parsePlanText } from "../planner/parsers/parse-plan.js";
import { defaultPrompts, type StepView } from "../planner/prompts.js";
import { requestedFormat, writePlan } from "./plan-writing.js";
import { readResults } from "./read-results.js";

const steps = [
  { id: 1, task: "orders", tool: "sql", args: { query: "select * from orders" } },
  { id: 2, task: "sum", tool: "metrics", args: { rows: "$1", label: "total of $1.count", price: "$20-$30" }, depends_on: [1] },
];

describe("offline plan writing", () => {
  it("reads which format the default planning prompt asks for", () => {
    for (const format of ["json", "rewoo", "llm-compiler"] as const) {
      const prompt = defaultPrompts
        .plan({ task: "t", tools: [], format })
        .map((message) => message.content)
        .join("\n");
      expect(requestedFormat(prompt)).toBe(format);
    }
  });

  it("writes plans that planloop's own parsers read back to the same steps", () => {
    for (const format of ["json", "rewoo", "llm-compiler"] as const) {
      const read = parsePlanText(writePlan(steps, format).join(""), { format });
      expect(read.ok).toBe(true);
      const plan = (read as { plan: { steps: Array<{ id: unknown; tool: unknown; depends_on: unknown }> } }).plan;
      expect(plan.steps.map((step) => [step.id, step.tool, step.depends_on])).toEqual([
        [1, "sql", []],
        [2, "metrics", [1]],
      ]);
      // A price in an argument stays a price in every format.
      expect(JSON.stringify(plan.steps[1])).toContain("$20-$30");
    }
  });
});

describe("readResults", () => {
  it("reads outputs and failures back from the default solve prompt", () => {
    const results: StepView[] = [
      { id: 1, task: "orders", tool: "sql", status: "succeeded", output: [{ id: 1 }] },
      { id: 2, task: "refunds", tool: "sql", status: "failed", error: "no such column" },
      { id: "x", task: "note", status: "succeeded", output: "plain text" },
    ];
    const prompt = defaultPrompts
      .solve({ task: "t", results })
      .map((message) => message.content)
      .join("\n");
    expect(readResults(prompt)).toEqual({ outputs: { 1: [{ id: 1 }], x: "plain text" }, failed: ["2"] });
  });
});
