import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, offlineModel, offlineNotice, runAgent, runStrategy, strategyNames, type OfflineTask } from "planloop";
import { FakeClock } from "planloop/testing";

function setup() {
  const calls: string[] = [];
  const population = defineTool({
    name: "population",
    description: "Population of a city in millions",
    input: z.object({ city: z.string() }),
    execute: ({ city }) => {
      calls.push(city);
      if (city === "Atlantis") throw new Error("no such city: Atlantis");
      return { city, millions: { Paris: 2.1, Rome: 2.8, Madrid: 3.3 }[city] ?? 0 };
    },
  });
  const sum = defineTool({
    name: "sum",
    description: "Add numbers",
    input: z.object({ values: z.array(z.number()) }),
    execute: ({ values }) => (calls.push("sum"), values.reduce((a, b) => a + b, 0)),
  });
  const task: OfflineTask = {
    name: "capitals",
    match: /total population of Paris, Rome and (Madrid|Atlantis)/,
    plan: [
      { id: 1, task: "population of Paris", tool: "population", args: { city: "Paris" } },
      { id: 2, task: "population of Rome", tool: "population", args: { city: "Rome" } },
      { id: 3, task: "population of the third city", tool: "population", args: { city: "Atlantis" } },
      { id: 4, task: "add them up", tool: "sum", args: { values: ["$1.millions", "$2.millions", "$3.millions"] }, depends_on: [1, 2, 3] },
    ],
    replan: () => [
      { id: 1, task: "population of Paris", tool: "population", args: { city: "Paris" } },
      { id: 2, task: "population of Rome", tool: "population", args: { city: "Rome" } },
      { id: 3, task: "population of Madrid instead", tool: "population", args: { city: "Madrid" } },
      { id: 4, task: "add them up", tool: "sum", args: { values: ["$1.millions", "$2.millions", "$3.millions"] }, depends_on: [1, 2, 3] },
    ],
    answer: (outputs) => {
      if (!("4" in outputs)) throw new Error("the sum is missing");
      return `${Number(outputs["4"]).toFixed(1)} million`;
    },
  };
  return { calls, tools: [population, sum], task };
}

describe("offlineModel", () => {
  it("without tasks says what it needs instead of crashing", () => {
    expect(() => (offlineModel as (options?: unknown) => unknown)()).toThrow(/offlineModel needs \{ tasks \}/);
  });

  it("answers every strategy in its own protocol; the replanning ones recover from the surprise", async () => {
    const outcomes: Record<string, unknown> = {};
    for (const name of strategyNames) {
      const { tools, task } = setup();
      const model = offlineModel({ tasks: [task], onNotice: () => {} });
      const result = await runStrategy(name, {
        task: "What is the total population of Paris, Rome and Atlantis?",
        model,
        tools,
        maxSteps: 12,
      });
      outcomes[name] = [result.status, result.output];
    }
    expect(outcomes).toEqual({
      react: ["completed", "8.2 million"],
      "plan-and-execute": ["completed", "8.2 million"],
      rewoo: ["failed", expect.stringContaining("could not finish")],
      "llm-compiler": ["completed", "8.2 million"],
      // Its first program fails on Atlantis; the repair is the replan.
      code: ["completed", "8.2 million"],
    });
  });

  it("calls one tool at a time in ReAct, replans after an error, and its token counts grow with the prompt", async () => {
    const { tools, task, calls } = setup();
    const events: number[] = [];
    const result = await runAgent({
      model: offlineModel({ tasks: [task], onNotice: () => {} }),
      tools,
      task: "total population of Paris, Rome and Madrid?",
      maxSteps: 10,
      onEvent: (event) => {
        if (event.type === "model-call-end") events.push(event.usage!.inputTokens);
      },
    });
    expect(result).toMatchObject({ status: "completed", output: "8.2 million", steps: 6 });
    expect(calls).toEqual(["Paris", "Rome", "Atlantis", "Madrid", "sum"]);
    expect(events).toHaveLength(6);
    expect(events.every((tokens, index) => index === 0 || tokens > events[index - 1]!)).toBe(true);
    expect(result.usage.inputTokens).toBe(events.reduce((a, b) => a + b, 0));
  });

  it("says plainly that it is offline, once, and that it cannot help with an unknown task", async () => {
    const notices: string[] = [];
    const model = offlineModel({ tasks: [], onNotice: (text) => notices.push(text) });
    const result = await runAgent({ model, tools: [], task: "Book me a flight" });
    await runAgent({ model, tools: [], task: "Another one" });
    expect(notices).toEqual([offlineNotice]);
    expect(result.output).toContain("offline model");
    expect(result.output).toContain('cannot help with "Book me a flight"');
  });

  it("takes its latency on the given clock and streams plans line by line", async () => {
    const clock = new FakeClock();
    const { task } = setup();
    const model = offlineModel({ tasks: [task], latencyMs: 500, clock, onNotice: () => {} });
    const request = {
      messages: [
        { role: "system" as const, content: "Write one task per line: `<n>. <tool>(<arguments>)`" },
        { role: "user" as const, content: "Task: total population of Paris, Rome and Madrid" },
      ],
      step: 0,
      signal: new AbortController().signal,
      tools: [],
      purpose: "plan" as const,
    };
    const seen: Array<[number, string]> = [];
    const reading = (async () => {
      for await (const part of model.streamText!(request)) if (part.type === "text") seen.push([clock.now(), part.text]);
    })();
    await clock.run(reading);
    expect(seen).toHaveLength(5);
    expect(seen[0]).toEqual([100, 'Thought: population of Paris\n1. population(city="Paris")\n']);
    expect(seen[4]).toEqual([500, "5. join()\n"]);
  });
});
