import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../core/tools/define-tool.js";
import { parseCompilerPlan } from "./compiler-plan.js";
import { readPythonLiteral } from "./python-literal.js";

describe("readPythonLiteral", () => {
  it("reads what ast.literal_eval reads: quotes and escapes, numbers, True/False/None, lists, tuples, dicts", () => {
    expect(readPythonLiteral(`['$1', "$2"]`)).toEqual({ value: ["$1", "$2"] });
    expect(readPythonLiteral(`('a', 2, -3.5e2, True, False, None,)`)).toEqual({ value: ["a", 2, -350, true, false, null] });
    expect(readPythonLiteral(`{'k': [1, {'n': 'it\\'s'}], 2: "x\\ny"}`)).toEqual({ value: { k: [1, { n: "it's" }], 2: "x\ny" } });
    expect(readPythonLiteral(`'\\u00e9t\\x e9'`)).toBeUndefined();
    expect(readPythonLiteral(`'caf\\u00e9'`)).toEqual({ value: "café" });
    expect(readPythonLiteral(`{'__proto__': 1}`)?.value).toEqual(JSON.parse('{"__proto__": 1}'));
    for (const notOne of ["$1", "'a' 'b'", "[1, 2", "Truth", ""]) expect(readPythonLiteral(notOne), notOne).toBeUndefined();
  });
});

describe("LLMCompiler plans as the papers write them", () => {
  const math = defineTool({
    name: "math",
    description: "math",
    input: z.object({ problem: z.string(), context: z.array(z.string()).optional() }),
    execute: () => 0,
  });
  const search = defineTool({ name: "search", description: "search", input: z.object({ entity: z.string() }), execute: () => "" });

  it("passes a Python list of references as a list", () => {
    const read = parseCompilerPlan(`1. search('cheetah')\n2. search("falcon")\n3. math("ratio?", ['$1', '$2'])\n4. join()`, [math, search]);
    expect(read).toMatchObject({
      ok: true,
      plan: { steps: [{}, {}, { args: { problem: "ratio?", context: ["$1", "$2"] }, depends_on: [1, 2] }] },
    });
  });

  it("leaves text after a task's last parenthesis aside, and makes an unclosed task line a plan error, never a silent drop", () => {
    expect(parseCompilerPlan(`1. search("x")'\n2. join()`, [search])).toMatchObject({
      ok: true,
      plan: { steps: [{ args: { entity: "x" } }] },
    });
    const unclosed = parseCompilerPlan(`1. search("x")\n2. math("double it", ["$1"]\n3. join()`, [math, search]);
    expect(unclosed).toMatchObject({ ok: false, error: expect.stringContaining("task 2: the line does not close its parenthesis") });
  });
});
