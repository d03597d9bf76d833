// Planning takes a strong model, simple steps a cheaper one (seed 001 §5): the planner is told
// the names, and each agent step runs on the model it names.
import { describe, expect, it } from "vitest";
import { planAndExecute, type ModelFunction } from "planloop";
import { ScriptedModel } from "planloop/testing";

const text = (content: string) => ({ type: "final" as const, content });

describe("model tiers in Plan-and-Execute", () => {
  it("tells the planner the model names and runs each agent step on the one it names", async () => {
    const plan = {
      steps: [
        { id: 1, task: "decide the scope", model: "strong" },
        { id: 2, task: "count the rows", model: "fast", depends_on: [1] },
      ],
    };
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(JSON.stringify(plan)) },
      { purpose: "solve", reply: text("done") },
    ]);
    const ran: string[] = [];
    const tier =
      (name: string): ModelFunction =>
      () => (ran.push(name), text(`${name} did it`));
    const result = await planAndExecute({
      task: "weekly numbers",
      planner,
      executor: tier("default"),
      models: { fast: tier("fast"), strong: tier("strong") },
    });
    expect(result).toMatchObject({ status: "completed", stepResults: { 1: { output: "strong did it" }, 2: { output: "fast did it" } } });
    expect(ran).toEqual(["strong", "fast"]);
    const system = planner.requests[0]!.messages[0]!.content as string;
    expect(system).toContain('may set "model" to one of: fast, strong');
  });

  it("says nothing of models to a planner when the run has none", async () => {
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(JSON.stringify({ steps: [{ id: 1, task: "think" }] })) },
      { purpose: "solve", reply: text("done") },
    ]);
    await planAndExecute({ task: "t", planner, executor: () => text("ok") });
    expect(planner.requests[0]!.messages[0]!.content).not.toContain('"model"');
  });
});
