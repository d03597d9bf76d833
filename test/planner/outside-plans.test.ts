// Plans nobody on the project wrote: the few-shot plans of the LLMCompiler and ReWOO authors'
// code and LangGraph's tutorials, and plans gpt-4o wrote for those tutorials
// (../shared/data/outside-plans, with what the original parsers make of each). Each text is
// read, run with stub tools, and its calls checked: the required calls with their exact
// arguments, optional ones exact if they run, nothing else, dependencies respected, and no
// unresolved reference ever reaching a tool.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, parsePlanText, validatePlan, type Tool } from "planloop";
import { sharedPath, skipWithout } from "../helpers/shared-data.js";

const dir = sharedPath("data", "outside-plans");
const marker = "======== verbatim text below this line, to the end of the file ========\n";

interface ExpectedCall {
  id: number;
  tool: string;
  args: Record<string, unknown>;
  compare?: string[];
}

interface Expected {
  name: string;
  format: "rewoo" | "llm-compiler";
  expected: {
    calls: ExpectedCall[];
    optional?: ExpectedCall[];
    deps: Record<string, number[]>;
    optionalDeps?: Record<string, number[]>;
    normalizations: string[];
  };
}

interface Ran {
  tool: string;
  args: Record<string, unknown>;
  start: number;
  end: number;
}

/** The stub tools of the collected texts: each returns «tool: its primary argument», as the expected readings assume. */
function stubTools(runs: Map<string, Ran>): Tool[] {
  let seq = 0;
  const stub = (name: string, shape: z.ZodRawShape, primary: string): Tool =>
    defineTool({
      name,
      description: `${name} (stub)`,
      input: z.object(shape),
      execute: async (args: Record<string, unknown>, { callId }) => {
        const ran: Ran = { tool: name, args, start: seq++, end: -1 };
        runs.set(String(callId).replace(/^step:/, ""), ran);
        await Promise.resolve();
        ran.end = seq++;
        return `«${name}: ${String(args[primary])}»`;
      },
    }) as Tool;
  const text = z.string();
  return [
    stub("search", { entity: text }, "entity"),
    stub("math", { problem: text, context: z.array(z.string()).optional() }, "problem"),
    ...["Wikipedia", "Google", "WolframAlpha"].map((name) => stub(name, { query: text }, "query")),
    stub("LLM", { prompt: text }, "prompt"),
    stub("Calculator", { expression: text }, "expression"),
    stub("tool_1", { arg1: text, arg2: z.unknown().optional(), arg3: z.unknown().optional() }, "arg1"),
    stub("tool_2", { arg1: text, arg2: z.unknown().optional() }, "arg1"),
  ];
}

const cases = existsSync(dir)
  ? readdirSync(dir)
      .filter((name) => name.endsWith(".expected.json"))
      .map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as Expected)
  : [];

// A clone without ../shared skips these (.ci/run runs them with it).
const missing = skipWithout(dir);

describe.skipIf(missing)("plans from the papers' code and LangGraph's tutorials (needs ../shared/data/outside-plans)", () => {
  it("are all here (26 plans)", () => {
    expect(cases).toHaveLength(26);
  });

  for (const entry of cases) {
    it(`${entry.name}: runs the calls the original reading gives (${entry.expected.normalizations.length} documented differences)`, async () => {
      const text = readFileSync(join(dir, `${entry.name}.txt`), "utf8").split(marker)[1]!;
      const runs = new Map<string, Ran>();
      const tools = stubTools(runs);
      const parsed = parsePlanText(text, { format: entry.format, tools });
      const { expected } = entry;
      const checked = parsed.ok ? validatePlan(parsed.plan, { tools }) : undefined;
      if (!checked?.ok) {
        // A plan the reading refuses goes back to the planner and runs nothing: allowed only
        // where nothing is required to run (ParallelQA's example that drops three ")").
        const problems = parsed.ok ? checked!.ok || checked!.errors.map((error) => error.message).join("; ") : parsed.error;
        expect(expected.calls, String(problems)).toEqual([]);
        expect(String(problems)).toMatch(/never closes|\)/);
        return;
      }
      await executePlan({ plan: checked.plan, tools, concurrency: 8 });
      for (const call of expected.calls) {
        const done = runs.get(String(call.id));
        expect(done, `task ${call.id} must run`).toBeDefined();
        expect(done!.tool).toBe(call.tool);
        expect(compared(done!.args, call.compare)).toEqual(compared(call.args, call.compare));
      }
      for (const [id, done] of runs) {
        const listed = [...expected.calls, ...(expected.optional ?? [])].find((call) => String(call.id) === id);
        expect(listed, `task ${id} ran but the reading has no such call`).toBeDefined();
        expect(compared(done.args, listed!.compare)).toEqual(compared(listed!.args, listed!.compare));
        expect(JSON.stringify(done.args), `task ${id} got an unresolved reference`).not.toMatch(/\$\{?\d+\}?|#E\d+/);
        const deps = expected.deps[id] ?? expected.optionalDeps?.[id] ?? [];
        for (const dependency of deps) {
          const before = runs.get(String(dependency));
          expect(before, `task ${id} ran without its dependency ${dependency}`).toBeDefined();
          expect(before!.end).toBeLessThan(done.start);
        }
      }
    });
  }
});

function compared(args: Record<string, unknown>, keys: string[] | undefined): Record<string, unknown> {
  const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  return keys === undefined ? defined : Object.fromEntries(keys.map((key) => [key, defined[key]]));
}
