// A saved state that was edited or cut short is refused with InvalidOptionsError, whichever
// part is wrong: never a TypeError from deep inside, never a run that goes wrong.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, InvalidOptionsError, rewoo, runAgent } from "planloop";
import { ScriptedModel } from "planloop/testing";

const approveMe = defineTool({ name: "pay", description: "Pays", input: z.object({}), needsApproval: true, execute: () => "paid" });
const plan = { steps: [{ id: 1, task: "pay", tool: "pay", args: {} }] };

const notAMap = [null, "1", [], -5];
const notUsage = [null, "1", [], -5, { modelCalls: "many", inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 0 }];
const notElapsed = [null, "1", [], -5];

/** `state` with one field at a time replaced by each of its wrong values. */
function damaged(state: Record<string, unknown>, wrong: Record<string, unknown[]>): Array<[string, unknown]> {
  return Object.entries(wrong).flatMap(([field, values]) =>
    values.map((value) => [`${field} = ${JSON.stringify(value)}`, { ...state, [field]: value }] as [string, unknown]),
  );
}

describe("damaged saved states", () => {
  it("executePlan refuses them", async () => {
    const paused = await executePlan({ plan, tools: [approveMe] });
    expect(paused.status).toBe("waiting");
    for (const [label, state] of damaged(paused.state as never, {
      steps: notAMap,
      waiting: notAMap,
      usage: notUsage,
      elapsedMs: notElapsed,
    })) {
      await expect(executePlan({ plan, tools: [approveMe], resume: state as never }), label).rejects.toThrow(InvalidOptionsError);
    }
  });

  it("runAgent refuses them", async () => {
    const model = new ScriptedModel([{ purpose: "act", reply: { type: "tool_calls", calls: [{ id: "c1", name: "pay", arguments: {} }] } }]);
    const paused = await runAgent({ model, tools: [approveMe] });
    expect(paused.status).toBe("waiting");
    for (const [label, state] of damaged(paused.state as never, {
      usage: notUsage,
      elapsedMs: notElapsed,
      toolCallCounts: notAMap,
      progress: notAMap,
    })) {
      await expect(runAgent({ model, tools: [approveMe], resume: state as never }), label).rejects.toThrow(InvalidOptionsError);
    }
  });

  it("the planning strategies refuse them", async () => {
    const planner = new ScriptedModel([{ purpose: "plan", reply: { type: "final", content: "#E1 = pay[{}]" } }]);
    const paused = await rewoo({ task: "pay", planner, tools: [approveMe] });
    expect(paused.status).toBe("waiting");
    for (const [label, state] of damaged(paused.state as never, {
      planVersions: [null, "1", [], -5],
      replans: [null, "1", -1, 1.5],
      acknowledged: [null, "1", -5, {}],
      execution: notAMap,
      usage: notUsage,
      elapsedMs: notElapsed,
    })) {
      await expect(rewoo({ task: "pay", planner, tools: [approveMe], resume: state as never }), label).rejects.toThrow(InvalidOptionsError);
    }
  });
});
