import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../core/tools/define-tool.js";
import { CompilerPlanReader, parseCompilerPlan } from "./compiler-plan.js";
import { parseJsonPlan } from "./json-plan.js";
import { detectFormat, parsePlanText } from "./parse-plan.js";
import { parseRewooPlan } from "./rewoo-plan.js";
import { validatePlan } from "../../plan/validate-plan.js";

const search = defineTool({ name: "search", description: "web search", input: z.object({ query: z.string() }), execute: () => "" });
const compare = defineTool({
  name: "compare",
  description: "compare two values",
  input: z.object({ left: z.unknown(), right: z.unknown(), unit: z.string().optional() }),
  execute: () => "",
});
const tools = [search, compare];

describe("parseJsonPlan", () => {
  it("finds the plan inside prose and code fences", () => {
    const text = 'Here is my plan:\n```json\n{"steps": [{"id": 1, "task": "a", "depends_on": []}]}\n```\nLet me know.';
    expect(parseJsonPlan(text)).toEqual({ ok: true, plan: { steps: [{ id: 1, task: "a", depends_on: [] }] } });
    const bare = 'Sure! {"steps": [{"id": "x", "task": "use {braces} in text", "depends_on": []}]} Done.';
    expect(parseJsonPlan(bare)).toMatchObject({ ok: true, plan: { steps: [{ id: "x", task: "use {braces} in text" }] } });
    expect(parseJsonPlan('[{"id": 1, "task": "a"}]')).toEqual({ ok: true, plan: { steps: [{ id: 1, task: "a" }] } });
  });

  it("explains what is wrong", () => {
    expect(parseJsonPlan("I cannot plan this.")).toMatchObject({ ok: false, error: expect.stringContaining('{"steps": [...]}') });
    expect(parseJsonPlan('{"plan": []}')).toMatchObject({ ok: false, error: expect.stringContaining('no "steps"') });
  });
});

describe("parseRewooPlan", () => {
  it("reads Plan: lines and #E evidence lines, with dependencies from the references", () => {
    const text = [
      "Plan: Find the capital of France.",
      "#E1 = search[capital of France]",
      'Plan: Compare its population with Berlin\'s. #E2 = compare[{"left": "#E1", "right": "Berlin"}]',
      "#E3 = search[weather in #E1 and #E2]",
    ].join("\n");
    expect(parseRewooPlan(text, tools)).toEqual({
      ok: true,
      plan: {
        steps: [
          { id: 1, task: "Find the capital of France.", tool: "search", args: { query: "capital of France" }, depends_on: [] },
          {
            id: 2,
            task: "Compare its population with Berlin's.",
            tool: "compare",
            args: { left: "#E1", right: "Berlin" },
            depends_on: [1],
          },
          { id: 3, task: "search[weather in #E1 and #E2]", tool: "search", args: { query: "weather in #E1 and #E2" }, depends_on: [1, 2] },
        ],
      },
    });
  });

  it("rejects a malformed evidence line", () => {
    expect(parseRewooPlan("#E1 = search(no brackets)")).toMatchObject({ ok: false });
    // Only #E<n> is a reference in this format: dollars in an argument are text.
    const priced = parseRewooPlan('Plan: find hotels. #E1 = search[{"query": "hotels", "price_range": "$20-$30"}]\n#E2 = book[#E1]');
    expect(priced).toMatchObject({
      ok: true,
      plan: {
        steps: [
          { id: 1, args: { query: "hotels", price_range: "$20-$30" }, depends_on: [] },
          { id: 2, depends_on: [1] },
        ],
      },
    });
    expect(parseRewooPlan("no plan here")).toMatchObject({ ok: false });
  });
});

describe("parseCompilerPlan", () => {
  it("reads numbered task lines, positional and named arguments, and $ references", () => {
    const text = [
      "Thought: look up both cities",
      '1. search("Paris population")',
      "2. search('Berlin population')",
      '3. compare($1, ${2}, unit="people")',
      "4. join()<END_OF_PLAN>",
    ].join("\n");
    expect(parseCompilerPlan(text, tools)).toEqual({
      ok: true,
      plan: {
        steps: [
          { id: 1, task: "look up both cities", tool: "search", args: { query: "Paris population" }, depends_on: [] },
          { id: 2, task: "search('Berlin population')", tool: "search", args: { query: "Berlin population" }, depends_on: [] },
          {
            id: 3,
            task: 'compare($1, ${2}, unit="people")',
            tool: "compare",
            args: { left: "$1", right: "${2}", unit: "people" },
            depends_on: [1, 2],
          },
        ],
      },
    });
  });

  it("hands out each task as soon as its line is complete", () => {
    const reader = new CompilerPlanReader(tools);
    expect(reader.push('1. search("a")\n2. sea')).toEqual([
      { kind: "task", step: { id: 1, task: 'search("a")', tool: "search", args: { query: "a" }, depends_on: [] } },
    ]);
    expect(reader.push('rch("b")\n3. jo')).toHaveLength(1);
    expect(reader.push("in()")).toEqual([]);
    expect(reader.end()).toEqual([{ kind: "join" }]);
  });

  it("takes one JSON object of the tool's own parameter names as the arguments themselves", () => {
    const text = '1. compare({"left": 1, "right": "$0", "unit": "m"})\n2. compare({"other": 1})';
    const steps = (parseCompilerPlan(text, tools) as { plan: { steps: Array<{ args: unknown }> } }).plan.steps;
    expect(steps[0]!.args).toEqual({ left: 1, right: "$0", unit: "m" });
    // Keys that are not the tool's parameters: the object is the first parameter's value.
    expect(steps[1]!.args).toEqual({ left: { other: 1 } });
  });

  it("says which argument has no parameter", () => {
    expect(parseCompilerPlan('1. search("a", "b")', tools)).toMatchObject({ ok: false, error: expect.stringContaining("argument 2") });
  });
});

describe("parsePlanText", () => {
  it("detects the format", () => {
    expect(detectFormat("#E1 = search[x]")).toBe("rewoo");
    expect(detectFormat('1. search("x")\n2. join()')).toBe("llm-compiler");
    expect(detectFormat('{"steps": []}')).toBe("json");
    expect(parsePlanText('1. search("x")', { tools })).toMatchObject({ ok: true, plan: { steps: [{ args: { query: "x" } }] } });
  });
});

describe("prices are not references", () => {
  it("reads a task's own number as a price, as the plan check does", () => {
    const read = parsePlanText('1. search("x")\n2. search("$2 off")', { tools });
    expect(read).toMatchObject({ ok: true, plan: { steps: [{ id: 1 }, { id: 2, args: { query: "$2 off" }, depends_on: [] }] } });
    expect(read.ok && validatePlan(read.plan, { tools }).ok).toBe(true);
  });

  it("reads $100 in an LLMCompiler task as text unless a task 100 was written before", () => {
    const read = parseCompilerPlan('1. search("laptops under $100")\n2. compare($1, "$5 off")', tools);
    expect(read).toMatchObject({
      ok: true,
      plan: {
        steps: [
          { id: 1, args: { query: "laptops under $100" }, depends_on: [] },
          { id: 2, args: { left: "$1", right: "$5 off" }, depends_on: [1] },
        ],
      },
    });
  });
});

describe("parsePlanText", () => {
  it("reads a plan in another format than the one asked for; when nothing reads, the asked format's error", () => {
    const json = '{"steps": [{"id": 1, "task": "look", "tool": "search", "args": {"q": "x"}}]}';
    expect(parsePlanText(json, { format: "rewoo" })).toMatchObject({ ok: true, plan: { steps: [{ id: 1, tool: "search" }] } });
    expect(parsePlanText('#E1 = search[{"q": "x"}]', { format: "json" })).toMatchObject({ ok: true });
    const neither = parsePlanText("I would search first.", { format: "rewoo" });
    expect(neither).toMatchObject({ ok: false, error: expect.stringContaining("evidence") });
  });
});
