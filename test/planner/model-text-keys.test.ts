// Step ids, call ids and tool names come from model text: every one of them, the names of
// JavaScript's object machinery included, is data and never reaches an object's prototype.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, runAgent } from "planloop";

const machinery = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

function countingTools() {
  const calls: string[] = [];
  const echo = defineTool({
    name: "echo",
    description: "returns its text",
    input: z.object({ text: z.string() }),
    execute: ({ text }) => (calls.push(text), text),
  });
  const refund = defineTool({
    name: "refund",
    description: "refunds",
    input: z.object({ text: z.string() }),
    needsApproval: true,
    execute: ({ text }) => (calls.push(`refund ${text}`), `refunded ${text}`),
  });
  return { calls, tools: [echo, refund] };
}

describe("names from model text are data", () => {
  it("keeps a record for every step id, through a saved state and a resume that runs nothing twice", async () => {
    const { calls, tools } = countingTools();
    const steps = machinery.map((id) => ({ id, task: id, tool: "echo", args: { text: id } }));
    const plan = { steps: [...steps, { id: "last", task: "refund", tool: "refund", args: { text: "all" }, depends_on: machinery }] };
    const paused = await executePlan({ plan, tools });
    expect(paused.status).toBe("waiting");
    for (const id of machinery) {
      expect(Object.hasOwn(paused.steps, id)).toBe(true);
      expect(paused.steps[id]).toMatchObject({ status: "succeeded", output: id });
    }
    expect(Object.getPrototypeOf(paused.steps)).not.toEqual(expect.objectContaining({ status: "succeeded" }));
    const state = JSON.parse(JSON.stringify(paused.state));
    const resumed = await executePlan({ plan, tools, resume: state, approvals: { "step:last": { approved: true } } });
    expect(resumed.status).toBe("completed");
    expect(calls).toEqual([...machinery, "refund all"]);
  });

  it("gives a plan with several final steps named like object machinery an output with each as its own key", async () => {
    const { tools } = countingTools();
    const plan = { steps: machinery.map((id) => ({ id, task: id, tool: "echo", args: { text: id } })) };
    const result = await executePlan({ plan, tools });
    const output = result.output as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.keys(output)).toEqual(machinery);
    for (const id of machinery) expect(Object.getOwnPropertyDescriptor(output, id)?.value).toBe(id);
  });

  it("can approve a waiting step named like object machinery, and leaves the others waiting", async () => {
    for (const id of machinery) {
      const { calls, tools } = countingTools();
      const plan = { steps: [{ id, task: "refund", tool: "refund", args: { text: id } }] };
      const paused = await executePlan({ plan, tools });
      expect(paused.status).toBe("waiting");
      // No decision given: still waiting, not denied by an inherited property.
      const still = await executePlan({ plan, tools, resume: JSON.parse(JSON.stringify(paused.state)), approvals: {} });
      expect(still.status).toBe("waiting");
      const approved = await executePlan({
        plan,
        tools,
        resume: JSON.parse(JSON.stringify(paused.state)),
        approvals: JSON.parse(`{"step:${id}": {"approved": true}}`),
      });
      expect(approved.status).toBe("completed");
      expect(calls).toEqual([`refund ${id}`]);
    }
  });

  it("enforces maxCalls for tools named like object machinery", async () => {
    for (const name of machinery) {
      let ran = 0;
      const tool = defineTool({ name, description: "counted", input: z.object({}), maxCalls: 1, execute: () => ++ran });
      let turn = 0;
      const result = await runAgent({
        model: async () =>
          ++turn <= 2 ? { type: "tool_calls", calls: [{ id: `c${turn}`, name, arguments: {} }] } : { type: "final", content: "done" },
        tools: [tool],
      });
      expect(result.status).toBe("completed");
      expect(ran).toBe(1);
      expect(result.messages.filter((message) => message.role === "tool").map((message) => message.error?.kind)).toEqual([
        undefined,
        "call_limit",
      ]);
    }
  });

  it("a ReAct call id named like object machinery stays waiting until it is decided", async () => {
    const { tools } = countingTools();
    for (const id of machinery) {
      let modelCalls = 0;
      const model = async () => (++modelCalls, { type: "tool_calls" as const, calls: [{ id, name: "refund", arguments: { text: id } }] });
      const paused = await runAgent({ model, tools });
      expect(paused.status).toBe("waiting");
      const still = await runAgent({ model, tools, resume: JSON.parse(JSON.stringify(paused.state)), approvals: {} });
      expect(still.status).toBe("waiting");
      // Nothing was decided: the model is not asked again and no call was denied.
      expect(modelCalls).toBe(1);
      expect(still.messages.filter((message) => message.role === "tool")).toEqual([]);
    }
  });
});
