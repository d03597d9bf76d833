import { describe, expect, it } from "vitest";
import type { ModelFunction } from "../core/model.js";
import { executePlan } from "./execute-plan.js";

/** A model that answers with its own name, so a step's output says which model ran it. */
const named =
  (name: string, calls: string[]): ModelFunction =>
  () => (calls.push(name), { type: "final", content: `${name} answered` });

const plan = {
  steps: [
    { id: "plan", task: "think hard", model: "strong" },
    { id: "sum", task: "add up", model: "fast", depends_on: ["plan"] },
    { id: "note", task: "write a note", depends_on: ["sum"] },
  ],
};

describe("a model per agent step", () => {
  it("runs each agent step on the model it names, and a step that names none on the run's model", async () => {
    const calls: string[] = [];
    const result = await executePlan({
      plan,
      model: named("default", calls),
      models: { fast: named("fast", calls), strong: named("strong", calls) },
    });
    expect(result.steps).toMatchObject({
      plan: { output: "strong answered" },
      sum: { output: "fast answered" },
      note: { output: "default answered" },
    });
    expect(calls).toEqual(["strong", "fast", "default"]);
  });

  it("refuses a plan that names a model the run does not have, listing the ones it has, before anything runs", async () => {
    const calls: string[] = [];
    await expect(executePlan({ plan, model: named("default", calls), models: { fast: named("fast", calls) } })).rejects.toThrow(
      'step plan asks for model "strong", which is not in models (fast)',
    );
    expect(calls).toEqual([]);
    await expect(executePlan({ plan, model: named("default", calls), models: { fast: "nope" as never } })).rejects.toThrow(
      "models.fast must be a function",
    );
  });

  it("without models, the names are left aside and the run's model runs every agent step; with all named, no run model is needed", async () => {
    const calls: string[] = [];
    await executePlan({ plan, model: named("default", calls) });
    expect(calls).toEqual(["default", "default", "default"]);
    const allNamed = { steps: plan.steps.slice(0, 2) };
    const result = await executePlan({ plan: allNamed, models: { fast: named("fast", calls), strong: named("strong", calls) } });
    expect(result.status).toBe("completed");
    await expect(executePlan({ plan: { steps: [{ id: 1, task: "t", model: "" }] }, model: named("d", calls) })).rejects.toThrow(/invalid/i);
  });
});
