// A run's tenant rides on every model call it makes (issue 58): the planner's and the solver's
// as the steps', in each strategy, so a provider limit gives the whole run's calls their turns
// by tenant.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runStrategy, type StrategyName } from "planloop";
import { ScriptedModel } from "planloop/testing";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a city up",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 2.1 million`,
});
const final = (content: string) => ({ type: "final" as const, content });
const onePlan = JSON.stringify({ steps: [{ id: 1, task: "Paris", tool: "lookup", args: { city: "Paris" } }] });

const scripts: Array<[StrategyName, () => ScriptedModel]> = [
  [
    "plan-and-execute",
    () =>
      new ScriptedModel([
        { purpose: "plan", reply: final(onePlan) },
        { purpose: "solve", reply: final("2.1 million") },
      ]),
  ],
  [
    "rewoo",
    () =>
      new ScriptedModel([
        { purpose: "plan", reply: final(onePlan) },
        { purpose: "solve", reply: final("2.1 million") },
      ]),
  ],
  [
    "llm-compiler",
    () =>
      new ScriptedModel([
        { purpose: "plan", reply: final('1. lookup({"city": "Paris"})\njoin()') },
        { purpose: "join", reply: final('{"decision": "finish", "answer": "2.1 million"}') },
      ]),
  ],
  ["react", () => new ScriptedModel([final("2.1 million")])],
];

describe.each(scripts)("%s with a tenant", (strategy, scripted) => {
  it("sends the run's tenant with every model call, the planner's and the solver's too", async () => {
    const model = scripted();
    const result = await runStrategy(strategy, { task: "How many live in Paris?", model, tools: [lookup], tenant: "acme" });
    expect(result.status).toBe("completed");
    expect(model.requests.length).toBeGreaterThan(0);
    expect(model.requests.map((request) => [request.purpose, request.tenant])).toEqual(
      model.requests.map((request) => [request.purpose, "acme"]),
    );
  });
});
