import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../core/tools/define-tool.js";
import { buildPlanGraph } from "./graph/plan-graph.js";
import { readPlan } from "./read-plan.js";
import { checkPlan, streamedStepErrors, validatePlan } from "./validate-plan.js";

const sql = defineTool({ name: "sql", description: "Run SQL", input: z.object({ query: z.string() }), execute: () => [] });
const weeklyReport = {
  steps: [
    { id: 1, task: "query this week's orders", depends_on: [] },
    { id: 2, task: "query this week's refunds", depends_on: [] },
    { id: 3, task: "query this week's support tickets", depends_on: [] },
    { id: 4, task: "compute order count, refund total and ticket count", depends_on: [1, 2, 3] },
    { id: 5, task: "summarise the metrics into a weekly report", depends_on: [4] },
  ],
};

describe("validatePlan", () => {
  it("accepts the seed's weekly-report plan", () => {
    const result = validatePlan(weeklyReport);
    expect(result.ok).toBe(true);
    expect(result.ok && result.plan.steps[4]?.depends_on).toEqual([4]);
  });

  it('fills in a missing depends_on and treats 1 and "1" as the same step', () => {
    const result = validatePlan({
      steps: [
        { id: 1, task: "a" },
        { id: 2, task: "b", depends_on: ["1"] },
      ],
    });
    expect(result).toMatchObject({ ok: true, plan: { steps: [{ depends_on: [] }, { depends_on: ["1"] }] } });
  });

  it("lists every problem at once", () => {
    const result = validatePlan(
      {
        steps: [
          { id: 1, task: "a", depends_on: [1] },
          { id: 2, task: "b", depends_on: [9] },
          { id: 2, task: "c", depends_on: [] },
          { id: 3, task: "d", tool: "sqll", depends_on: [] },
          { id: 4, task: "e", tool: "sql", args: { q: "select" }, depends_on: [] },
          { id: 5, task: "f", tool: "sql", args: { query: "$4" }, depends_on: [] },
          { id: 6, task: " ", depends_on: [] },
        ],
      },
      { tools: [sql] },
    );
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors.map((error) => [error.code, error.stepId])).toEqual([
      ["duplicate_id", 2],
      ["self_dependency", 1],
      ["unknown_dependency", 2],
      ["unknown_tool", 3],
      ["invalid_arguments", 4],
      ["undeclared_reference", 5],
      ["missing_task", 6],
    ]);
    expect(errors.find((error) => error.code === "unknown_tool")?.message).toContain("available tools: sql");
    expect(errors.find((error) => error.code === "invalid_arguments")?.message).toContain("query: missing (required)");
    expect(errors.find((error) => error.code === "undeclared_reference")?.message).toBe(
      "step 5 uses $4 but does not depend on step 4; add 4 to its depends_on",
    );
  });

  it("names the path of every cycle", () => {
    const result = validatePlan({
      steps: [
        { id: 1, task: "a", depends_on: [] },
        { id: 2, task: "b", depends_on: [1, 4] },
        { id: 3, task: "c", depends_on: [2] },
        { id: 4, task: "d", depends_on: [3] },
        { id: "x", task: "e", depends_on: ["y"] },
        { id: "y", task: "f", depends_on: ["x"] },
      ],
    });
    const messages = result.ok ? [] : result.errors.map((error) => error.message);
    expect(messages).toHaveLength(2);
    expect(messages).toContain("steps form a cycle: 2 -> 3 -> 4 -> 2; remove one of these dependencies so the plan can start");
    expect(messages.some((message) => message.includes("x -> y -> x"))).toBe(true);
  });

  it("accepts references to transitive dependencies and checks arguments only without placeholders", () => {
    const result = validatePlan(
      {
        steps: [
          { id: 1, task: "a", tool: "sql", args: { query: "select 1" } },
          { id: 2, task: "b", depends_on: [1] },
          { id: 3, task: "c", tool: "sql", args: { query: "#E1" }, depends_on: [2] },
        ],
      },
      { tools: [sql] },
    );
    expect(result.ok).toBe(true);
  });

  it("checks the references of a join over many steps: every direct one accepted, the one it does not depend on named", () => {
    // Forty branches (past the length at which a step's dependencies are marked, not searched),
    // a join that uses each of them, and a step after the join that uses one branch through it.
    const branches = Array.from({ length: 40 }, (_, index) => ({ id: `b${index}`, task: "branch" }));
    const outsider = { id: "outsider", task: "not a dependency" };
    const join = {
      id: "join",
      task: "join",
      tool: "sql",
      args: { query: [...branches.map((step) => `\${${step.id}}`), "${outsider}"].join(" ") },
      depends_on: branches.map((step) => step.id),
    };
    const after = { id: "after", task: "after", tool: "sql", args: { query: "${b7}" }, depends_on: ["join"] };
    const result = validatePlan({ steps: [...branches, outsider, join, after] }, { tools: [sql] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((error) => error.message)).toEqual([
      "step join uses ${outsider} but does not depend on step outsider; add outsider to its depends_on",
    ]);
  });

  it("checks references through others in a plan with a cycle too, before and after it", () => {
    const step = (id: string, dependsOn: string[], query?: string) => ({
      id,
      task: id,
      tool: "sql",
      args: { query: query ?? "select 1" },
      depends_on: dependsOn,
    });
    const result = validatePlan(
      {
        steps: [
          step("a", ["b"]),
          step("b", ["a"]),
          step("e", []),
          step("d", ["e"]),
          step("c", ["d"], "${e}"),
          step("f", ["a"]),
          step("g", ["f"], "${a}"),
          step("h", ["f"], "${e}"),
        ],
      },
      { tools: [sql] },
    );
    expect(!result.ok && result.errors.map((error) => error.code)).toEqual(["cycle", "undeclared_reference"]);
    expect(!result.ok && result.errors[1]!.message).toBe("step h uses ${e} but does not depend on step e; add e to its depends_on");
  });

  it("explains a wrong shape with the field's path", () => {
    const result = validatePlan({ steps: [{ id: 1.5, depends_on: "none" }] });
    expect(result.ok).toBe(false);
    const message = result.ok ? "" : result.errors[0]!.message;
    expect(message).toContain("steps.0.task: missing (required)");
    expect(message).toContain("steps.0.depends_on");
    expect(validatePlan({ steps: [] }).ok).toBe(false);
    expect(validatePlan("plan").ok).toBe(false);
  });
});

describe("streamedStepErrors", () => {
  it("finds what checkPlan finds about the newest step of a plan that arrives step by step", () => {
    const steps = [
      { id: 1, task: "orders", tool: "sql", args: { query: "select 1" }, depends_on: [] },
      { id: 2, task: "self", tool: "sql", args: { query: "x" }, depends_on: [2] },
      { id: 3, task: "later", tool: "sql", args: { query: "x" }, depends_on: [9] },
      { id: 4, task: "bad args", tool: "sql", args: { query: 7 }, depends_on: [1] },
      { id: 5, task: "no tool", tool: "mail", args: {}, depends_on: [] },
      { id: 6, task: "undeclared", tool: "sql", args: { query: "$1" }, depends_on: [] },
      { id: 7, task: "through an ancestor", tool: "sql", args: { query: "#E1" }, depends_on: [4] },
      { id: 8, task: " ", depends_on: [1, 1] },
    ];
    const codes: string[] = [];
    for (let index = 0; index < steps.length; index += 1) {
      const arrived = { steps: steps.slice(0, index + 1).map((step) => ({ ...step })) };
      const whole = checkPlan(arrived, { tools: [sql] });
      const expected = whole.ok ? [] : whole.errors.filter((error) => error.stepId === steps[index]!.id);
      const read = readPlan(arrived);
      if (!read.success) throw new Error("the test's steps have the plan's shape");
      const found = streamedStepErrors(read.data.steps[index]!, index, { graph: buildPlanGraph(read.data), tools: [sql] });
      expect(found).toEqual(expected);
      codes.push(...found.map((error) => error.code));
    }
    // (Step 7 reaches step 1 through step 4: no problem.)
    expect(codes).toEqual([
      "self_dependency",
      "unknown_dependency",
      "invalid_arguments",
      "unknown_tool",
      "undeclared_reference",
      "missing_task",
    ]);
  });
});

describe("references to earlier outputs", () => {
  it("are accepted exactly when the step depends on the referenced step, directly or through others", () => {
    // Step i may depend only on steps before it (no cycles) and uses one step's output.
    const plans = fc
      .integer({ min: 2, max: 12 })
      .chain((count) =>
        fc.tuple(
          fc.tuple(...Array.from({ length: count }, (_, step) => fc.subarray(Array.from({ length: step }, (_, need) => need)))),
          fc.array(fc.nat({ max: count - 1 }), { minLength: count, maxLength: count }),
        ),
      );
    fc.assert(
      fc.property(plans, ([needs, uses]) => {
        const steps = needs.map((dependsOn, id) => ({ id, task: "t", args: { input: `#E${uses[id]}` }, depends_on: dependsOn }));
        const ancestors = (step: number): Set<number> => new Set(needs[step]!.flatMap((need) => [need, ...ancestors(need)]));
        const expected = steps.filter((_, id) => !ancestors(id).has(uses[id]!)).map((step) => step.id);
        const result = validatePlan({ steps });
        const undeclared = result.ok
          ? []
          : result.errors.filter((error) => error.code === "undeclared_reference").map((error) => error.stepId);
        expect(undeclared).toEqual(expected);
      }),
    );
  });
});
