import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, react, rewoo } from "planloop";
import { ScriptedModel } from "planloop/testing";

function lookupTools() {
  const calls: string[] = [];
  const population: Record<string, number> = { Paris: 2.1, Berlin: 3.6, Madrid: 3.3, Rome: 2.8 };
  const lookup = defineTool({
    name: "population",
    description: "Population of a city in millions",
    input: z.object({ city: z.string() }),
    execute: ({ city }) => {
      calls.push(city);
      if (!(city in population)) throw new Error(`unknown city ${city}`);
      return population[city];
    },
  });
  const sum = defineTool({
    name: "sum",
    description: "Add numbers",
    input: z.object({ values: z.array(z.number()) }),
    execute: ({ values }) => (calls.push("sum"), values.reduce((a, b) => a + b, 0)),
  });
  return { calls, tools: [lookup, sum] };
}

const rewooPlan = [
  "Plan: Look up each city.",
  "#E1 = population[Paris]",
  "#E2 = population[Berlin]",
  "#E3 = population[Madrid]",
  "#E4 = population[Rome]",
  "Plan: Add them up.",
  '#E5 = sum[{"values": ["#E1", "#E2", "#E3", "#E4"]}]',
].join("\n");

describe("rewoo", () => {
  it("reads a plan its planner wrote as JSON, as every planning strategy does", async () => {
    const { calls, tools } = lookupTools();
    const json = JSON.stringify({ steps: [{ id: 1, task: "Paris", tool: "population", args: { city: "Paris" } }] });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: json } },
      { purpose: "solve", reply: { type: "final", content: "2.1 million" } },
    ]);
    expect(await rewoo({ task: "How many live in Paris?", planner, tools })).toMatchObject({ status: "completed", output: "2.1 million" });
    expect(calls).toEqual(["Paris"]);
  });

  it("makes exactly two model calls for a plan of five tool steps", async () => {
    const { calls, tools } = lookupTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: rewooPlan, usage: { inputTokens: 300, outputTokens: 80 } } },
      { purpose: "solve", reply: { type: "final", content: "11.8 million", usage: { inputTokens: 200, outputTokens: 5 } } },
    ]);
    const result = await rewoo({ task: "Total population of four capitals?", planner, tools });
    expect(result).toMatchObject({ strategy: "rewoo", status: "completed", output: "11.8 million", steps: 5, replans: 0 });
    expect(result.usage).toMatchObject({ modelCalls: 2, inputTokens: 500, outputTokens: 85, toolCalls: 5 });
    expect(result.stepResults["5"]?.output).toBeCloseTo(11.8);
    expect(calls.slice(0, 4).sort()).toEqual(["Berlin", "Madrid", "Paris", "Rome"]);
    expect(planner.requests[1]!.messages.at(-1)).toMatchObject({ content: expect.stringContaining("11.8") });
    planner.assertDone();
  });

  it("does not replan: a step that meets a surprise fails the run, with the solver's best answer", async () => {
    const { tools } = lookupTools();
    const planner = new ScriptedModel([
      { type: "final", content: "#E1 = population[Atlantis]\n#E2 = population[Rome]" },
      { type: "final", content: "Rome has 2.8 million; Atlantis is unknown" },
    ]);
    const result = await rewoo({ task: "Atlantis and Rome?", planner, tools, retry: { maxAttempts: 1 } });
    expect(result).toMatchObject({
      status: "failed",
      output: "Rome has 2.8 million; Atlantis is unknown",
      reason: expect.stringContaining("unknown city Atlantis"),
    });
  });
});

describe("react as a strategy", () => {
  it("reports the shared result shape", async () => {
    const { tools } = lookupTools();
    const model = new ScriptedModel([
      {
        type: "tool_calls",
        calls: [{ id: 1, name: "population", arguments: { city: "Paris" } }],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
      { type: "final", content: "2.1 million", usage: { inputTokens: 130, outputTokens: 4 } },
    ]);
    const result = await react({ task: "Population of Paris?", model, tools });
    expect(result).toMatchObject({ strategy: "react", status: "completed", output: "2.1 million", steps: 2, replans: 0 });
    expect(result.usage).toEqual({ modelCalls: 2, inputTokens: 230, outputTokens: 14, costUsd: 0, toolCalls: 1 });
    expect(result.trace.map((event) => event.type)).toContain("tool-call-end");
    expect(result.trace.at(-1)).toMatchObject({ type: "strategy-end", strategy: "react" });
  });

  it("turns a failing model into a failed result", async () => {
    const result = await react({ task: "x", model: () => Promise.reject(new Error("503")), tools: [] });
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("503") });
  });
});

describe("runStrategy", () => {
  it("runs the same task through every strategy and returns one shape", async () => {
    const { runStrategy, strategyNames } = await import("planloop");
    const scripts: Record<
      string,
      Array<{ type: "final"; content: string } | { type: "tool_calls"; calls: Array<{ id: number; name: string; arguments: unknown }> }>
    > = {
      react: [
        { type: "tool_calls", calls: [{ id: 1, name: "population", arguments: { city: "Rome" } }] },
        { type: "final", content: "2.8" },
      ],
      "plan-and-execute": [
        { type: "final", content: '{"steps": [{"id": 1, "task": "rome", "tool": "population", "args": {"city": "Rome"}}]}' },
        { type: "final", content: "2.8" },
      ],
      rewoo: [
        { type: "final", content: "#E1 = population[Rome]" },
        { type: "final", content: "2.8" },
      ],
      "llm-compiler": [
        { type: "final", content: '1. population("Rome")\n2. join()' },
        { type: "final", content: "FINISH: 2.8" },
      ],
      code: [
        { type: "final", content: '```js\nreturn await tools.population({ city: "Rome" });\n```' },
        { type: "final", content: "2.8" },
      ],
    };
    for (const name of strategyNames) {
      const { tools } = lookupTools();
      const result = await runStrategy(name, { task: "Population of Rome?", model: new ScriptedModel(scripts[name]!), tools });
      expect(result).toMatchObject({ strategy: name, status: "completed", output: "2.8", usage: { modelCalls: 2, toolCalls: 1 } });
      expect(Object.keys(result)).toEqual(expect.arrayContaining(["status", "output", "usage", "durationMs", "steps", "replans", "trace"]));
    }
    await expect(runStrategy("magic" as never, { task: "x", model: () => ({ type: "final", content: "" }), tools: [] })).rejects.toThrow(
      /unknown strategy/,
    );
  });
});

describe("strategy options", () => {
  it("reject a missing task or planner with a TypeError", async () => {
    const { planAndExecute, llmCompiler: compiler } = await import("planloop");
    const model = new ScriptedModel([]);
    await expect(react({ task: " ", model, tools: [] })).rejects.toThrow(/task must be a non-empty string/);
    await expect(rewoo({ task: "x", planner: undefined as never, tools: [] })).rejects.toThrow(TypeError);
    await expect(planAndExecute({ task: "x", planner: "gpt" as never })).rejects.toThrow(/planner must be a model/);
    await expect(compiler({ task: "x", planner: model, tools: lookupTools().tools, maxReplans: -1 })).rejects.toThrow(/maxReplans/);
  });
});

describe("a strategy whose plans are tool calls, given no tools", () => {
  it("is refused before the first model call", async () => {
    const { rewoo, llmCompiler } = await import("planloop");
    const { ScriptedModel } = await import("planloop/testing");
    const planner = new ScriptedModel([]);
    await expect(rewoo({ task: "t", planner, tools: [] })).rejects.toThrow(/rewoo needs tools: every step of its plan is a tool call/);
    await expect(llmCompiler({ task: "t", planner, tools: [] })).rejects.toThrow(/llm-compiler needs tools/);
    expect(planner.requests).toHaveLength(0);
  });
});
