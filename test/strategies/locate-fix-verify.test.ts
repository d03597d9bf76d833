// Seed 001: an outer plan of phases, each explored by an inner ReAct loop inside its own budget.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, planAndExecute } from "planloop";
import { ScriptedModel } from "planloop/testing";

describe("locate -> fix -> verify", () => {
  it("runs three agent steps, each with its own inner tool loop, in order", async () => {
    const used: string[] = [];
    const tool = (name: string, output: string) =>
      defineTool({
        name,
        description: name,
        input: z.object({ target: z.string() }),
        execute: ({ target }) => (used.push(`${name} ${target}`), output),
      });
    const tools = [
      tool("read_logs", "TypeError at parser.ts:42"),
      tool("read_file", "const x = input.value"),
      tool("edit_file", "ok"),
      tool("run_tests", "12 passed"),
    ];
    const plan = {
      steps: [
        { id: "locate", task: "find the cause of the API error from the logs", budget: { maxSteps: 4 } },
        { id: "fix", task: "fix the cause", depends_on: ["locate"], budget: { maxSteps: 3 } },
        { id: "verify", task: "run the tests to confirm the fix", depends_on: ["fix"], budget: { maxSteps: 3 } },
      ],
    };
    const call = (id: string, name: string, target: string) => ({
      type: "tool_calls" as const,
      calls: [{ id, name, arguments: { target } }],
    });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } },
      { purpose: "solve", reply: { type: "final", content: "Fixed a null input in parser.ts:42; tests pass." } },
    ]);
    const executor = new ScriptedModel([
      call("a", "read_logs", "api"),
      call("b", "read_file", "parser.ts"),
      { type: "final", content: "input.value is read before input is checked (parser.ts:42)" },
      call("c", "edit_file", "parser.ts"),
      { type: "final", content: "added a guard for missing input" },
      call("d", "run_tests", "all"),
      { type: "final", content: "12 passed" },
    ]);
    const result = await planAndExecute({ task: "the API returns 500s", planner, executor, tools });
    expect(result.status).toBe("completed");
    expect(used).toEqual(["read_logs api", "read_file parser.ts", "edit_file parser.ts", "run_tests all"]);
    expect(result.stepResults.verify?.output).toBe("12 passed");
    const fixPrompt = executor.requests[3]!.messages[0]!;
    expect(fixPrompt.role === "user" && fixPrompt.content).toContain("input.value is read before input is checked");
    const innerStepIds = result.trace.filter((event) => event.type === "tool-call-end").map((event) => event.stepId);
    expect(innerStepIds).toEqual(["locate", "locate", "fix", "verify"]);
    expect(result.usage.modelCalls).toBe(2 + 7);
    planner.assertDone();
    executor.assertDone();
  });
});
