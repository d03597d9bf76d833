import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, planAndExecute, react, rewoo, type PlanloopEvent } from "planloop";
import { ScriptedModel } from "planloop/testing";

const text = (content: string) => ({ type: "final" as const, content });
const metrics = defineTool({
  name: "metrics",
  description: "the week's metrics",
  input: z.object({}),
  execute: () => ({ orders: 137, revenue_cny: 69136.98, tickets: 30 }),
});
const plan = JSON.stringify({ steps: [{ id: 1, task: "read the metrics", tool: "metrics", args: {} }] });
const good = "We took 137 orders worth ¥69,136.98 [s1]. Support had 30 tickets [s1].";
const wrong = "We took 137 orders worth ¥71,000.00 [s1]. Support had 30 tickets [s1].";

function planner(...answers: string[]) {
  return new ScriptedModel([
    { purpose: "plan", reply: text(plan) },
    ...answers.map((answer) => ({ purpose: "solve" as const, reply: text(answer) })),
  ]);
}

describe("grounding on the strategies", () => {
  it("flags by default: the result carries the verdicts and no model call is added", async () => {
    const model = planner(wrong);
    const events: PlanloopEvent[] = [];
    const result = await planAndExecute({
      task: "weekly report",
      planner: model,
      tools: [metrics],
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe("completed");
    expect(result.output).toBe(wrong);
    expect(result.provenance).toMatchObject({
      policy: "flag",
      repaired: false,
      removed: [],
      counts: { claims: 3, supported: 2, unsupported: 1 },
    });
    expect(result.provenance!.claims.find((claim) => claim.status === "unsupported")).toMatchObject({ text: "¥71,000.00", steps: [] });
    expect(model.requests).toHaveLength(2);
    expect(events.find((event) => event.type === "grounding-end")).toMatchObject({
      policy: "flag",
      claims: 3,
      unsupported: 1,
      repaired: false,
    });
  });

  it("asks the solver once to repair: it is told which claims failed and why", async () => {
    const model = planner(wrong, good);
    const result = await planAndExecute({ task: "weekly report", planner: model, tools: [metrics], grounding: "repair" });
    expect(result.output).toBe(good);
    expect(result.provenance).toMatchObject({ policy: "repair", repaired: true, counts: { unsupported: 0, supported: 3 } });
    const repair = model.requests[2]!.messages.at(-1)!.content as string;
    expect(repair).toContain("Your answer was:\n" + wrong);
    expect(repair).toContain("- ¥71,000.00: not in s1, nor in any other step");
    expect(model.requests[1]!.messages[0]!.content).toContain("cite the step it comes from as [s<id>]");
  });

  it("strict takes out what the repair left unsupported, and ends incomplete when nothing checkable is left", async () => {
    const result = await rewoo({ task: "weekly report", planner: planner(wrong, wrong), tools: [metrics], grounding: "strict" });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("Support had 30 tickets [s1].");
    expect(result.provenance).toMatchObject({
      policy: "strict",
      removed: ["We took 137 orders worth ¥71,000.00 [s1]."],
      counts: { unsupported: 0 },
    });
    const none = await rewoo({
      task: "weekly report",
      planner: planner("Revenue was ¥1.00 [s1].", "Revenue was ¥2.00 [s1]."),
      tools: [metrics],
      grounding: "strict",
    });
    expect(none.status).toBe("incomplete");
    expect(none.reason).toContain("no sentence with a supported claim is left");
  });

  it("checks nothing with grounding: false, and refuses an unknown policy", async () => {
    const result = await planAndExecute({ task: "weekly report", planner: planner(wrong), tools: [metrics], grounding: false });
    expect(result.provenance).toBeUndefined();
    await expect(planAndExecute({ task: "t", planner: planner(), tools: [metrics], grounding: "loose" as never })).rejects.toThrow(
      'grounding must be "flag", "repair", "strict" or false',
    );
  });

  it("checks a ReAct answer against its tool results, numbered as they came back", async () => {
    const model = new ScriptedModel([
      { type: "tool_calls", calls: [{ id: "c1", name: "metrics", arguments: {} }] },
      text("There were 137 orders [s1] and 31 tickets."),
    ]);
    const result = await react({ task: "weekly report", model, tools: [metrics] });
    expect(result.provenance!.claims.map((claim) => [claim.text, claim.status, claim.steps])).toEqual([
      ["137", "supported", ["1"]],
      ["31", "unsupported", []],
    ]);
  });
});
