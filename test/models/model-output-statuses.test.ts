// Whatever a model writes, a run ends with a status: nothing it sends throws out of planloop.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, planAndExecute, runAgent, validatePlan } from "planloop";
import { ScriptedModel } from "planloop/testing";

const echo = defineTool({ name: "echo", description: "echoes", input: z.object({ v: z.unknown() }), execute: ({ v }) => v });

function nested(depth: number): unknown {
  let value: Record<string, unknown> = {};
  const root = value;
  for (let level = 0; level < depth; level += 1) value = value.a = {};
  return root;
}

describe("model output yields a status, never an exception", () => {
  it('a placeholder key with an escape JSON does not know ($1["\\q"]) is a plan error, repaired by the planner', async () => {
    const plan = {
      steps: [
        { id: 1, task: "a", tool: "echo", args: { v: 1 } },
        { id: 2, task: "b", tool: "echo", args: { v: '$1["\\q"]' }, depends_on: [1] },
      ],
    };
    const checked = validatePlan(plan, { tools: [echo] });
    expect(checked).toMatchObject({ ok: false, errors: [{ code: "invalid_placeholder", stepId: 2 }] });
    await expect(executePlan({ plan, tools: [echo] })).rejects.toThrow(/not a valid JSON string/);

    const fixed = { steps: [plan.steps[0], { ...plan.steps[1], args: { v: "$1" } }] };
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } },
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(fixed) } },
      { purpose: "solve", reply: { type: "final", content: "done" } },
    ]);
    const result = await planAndExecute({ task: "t", planner, tools: [echo] });
    expect(result).toMatchObject({ status: "completed", output: "done" });
    expect(result.trace.some((event) => event.type === "plan-invalid")).toBe(true);
  });

  it("tool arguments nested past the limit are an invalid-arguments observation, and the run goes on", async () => {
    let turn = 0;
    const ran: unknown[] = [];
    const tool = defineTool({ name: "deep", description: "d", input: z.any(), execute: (args) => (ran.push(args), "ok") });
    const result = await runAgent({
      model: async () =>
        ++turn === 1
          ? { type: "tool_calls", calls: [{ id: "1", name: "deep", arguments: nested(2_500) }] }
          : { type: "final", content: "gave up" },
      tools: [tool],
    });
    expect(result).toMatchObject({ status: "completed", output: "gave up" });
    expect(ran).toEqual([]);
    expect(result.messages.find((message) => message.role === "tool")).toMatchObject({
      role: "tool",
      error: { kind: "invalid_arguments", message: expect.stringContaining("deeper than 64") },
    });
    expect(() => JSON.stringify(result.messages)).not.toThrow();
  });

  it("a plan step with arguments nested past the limit is a plan error", () => {
    const checked = validatePlan({ steps: [{ id: 1, task: "a", tool: "echo", args: { v: nested(2_500) } }] }, { tools: [echo] });
    expect(checked).toMatchObject({ ok: false, errors: [{ code: "invalid_arguments", stepId: 1 }] });
  });

  it("tool outputs are recorded JSON-safe: a BigInt, a cycle and a Map survive saving the state", async () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    const odd = defineTool({
      name: "odd",
      description: "returns what JSON cannot hold",
      input: z.object({}),
      execute: () => ({ big: 10n, cycle, map: new Map([["k", 1]]), when: new Date(0) }),
    });
    const gate = defineTool({ name: "gate", description: "waits", input: z.object({}), needsApproval: true, execute: () => "open" });
    const plan = {
      steps: [
        { id: 1, task: "odd", tool: "odd", args: {} },
        { id: 2, task: "gate", tool: "gate", args: {}, depends_on: [1] },
      ],
    };
    const paused = await executePlan({ plan, tools: [odd, gate] });
    expect(paused.status).toBe("waiting");
    const saved = JSON.parse(JSON.stringify(paused.state));
    expect(saved.steps["1"].output).toEqual({
      big: "10n",
      cycle: { name: "loop", self: "[Circular]" },
      map: { "[Map]": [["k", 1]] },
      when: "1970-01-01T00:00:00.000Z",
    });
    const resumed = await executePlan({ plan, tools: [odd, gate], resume: saved, approvals: { "step:2": { approved: true } } });
    expect(resumed.status).toBe("completed");
  });

  it("a plain output is recorded as it is, not copied", async () => {
    const rows = [{ id: 1, total: 5 }];
    const tool = defineTool({ name: "rows", description: "rows", input: z.object({}), execute: () => rows });
    const result = await executePlan({ plan: { steps: [{ id: 1, task: "rows", tool: "rows", args: {} }] }, tools: [tool] });
    expect(result.steps["1"]!.output).toBe(rows);
  });
});
