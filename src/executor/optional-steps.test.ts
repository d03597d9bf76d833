import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, planAndExecute, type ModelRequest } from "planloop";
import { ScriptedModel } from "planloop/testing";

/** A weekly report's sources: orders and refunds answer, the ticket system is down. */
function sources(options: { approveReport?: boolean } = {}) {
  const seen: unknown[] = [];
  const fetch = defineTool({
    name: "fetch",
    description: "Reads a source",
    input: z.object({ source: z.string() }),
    execute: ({ source }) => {
      if (source === "tickets") throw Object.assign(new Error("the ticket system is down"), { retryable: false });
      return { source, rows: 3 };
    },
  });
  const report = defineTool({
    name: "report",
    description: "Writes the report",
    input: z.object({ orders: z.unknown(), refunds: z.unknown(), tickets: z.unknown() }),
    needsApproval: options.approveReport === true,
    execute: (inputs) => (seen.push(inputs), "the report"),
  });
  return { tools: [fetch, report], seen };
}

const plan = {
  steps: [
    { id: "orders", task: "orders", tool: "fetch", args: { source: "orders" } },
    { id: "refunds", task: "refunds", tool: "fetch", args: { source: "refunds" } },
    { id: "tickets", task: "tickets", tool: "fetch", args: { source: "tickets" }, optional: true },
    {
      id: "report",
      task: "write it",
      tool: "report",
      args: { orders: "${orders}", refunds: "${refunds}", tickets: "${tickets}" },
      depends_on: ["orders", "refunds", "tickets"],
    },
  ],
};

describe("optional steps", () => {
  it("a failed optional step does not fail the run or skip its dependents: they get a marker, the result lists it as missing", async () => {
    const { tools, seen } = sources();
    const result = await executePlan({ plan, tools });
    expect(result.status).toBe("completed");
    expect(result.missing).toEqual(["tickets"]);
    expect(result.steps.tickets).toMatchObject({ status: "failed", error: '"fetch" failed: the ticket system is down' });
    expect(result.steps.report).toMatchObject({ status: "succeeded", output: "the report" });
    expect(seen).toEqual([
      {
        orders: { source: "orders", rows: 3 },
        refunds: { source: "refunds", rows: 3 },
        tickets: "[missing: step tickets is optional and failed; its result is not available]",
      },
    ]);
    expect(result.reason).toBeUndefined();
  });

  it("a required step that fails still fails the run and skips what depends on it", async () => {
    const { tools } = sources();
    const required = { steps: plan.steps.map((step) => (step.id === "tickets" ? { ...step, optional: false } : step)) };
    const result = await executePlan({ plan: required, tools });
    expect(result.status).toBe("failed");
    expect(result.missing).toBeUndefined();
    expect(result.steps.report).toMatchObject({ status: "skipped", error: "step tickets failed" });
  });

  it("a run continued after a pause still counts the missing result as met", async () => {
    const { tools: gated, seen } = sources({ approveReport: true });
    const store = memoryStore();
    const paused = await executePlan({ plan, tools: gated, store, runId: "weekly" });
    expect(paused.status).toBe("waiting");
    const done = await executePlan({ plan, tools: gated, store, runId: "weekly", approvals: { "step:report": { approved: true } } });
    expect(done.status).toBe("completed");
    expect(done.missing).toEqual(["tickets"]);
    expect(seen).toHaveLength(1);
    expect((seen[0] as { tickets: string }).tickets).toContain("[missing: step tickets");
  });

  it("an agent step is shown the missing result as such", async () => {
    const { tools } = sources();
    const prompts: string[] = [];
    const model = async (request: ModelRequest) => {
      prompts.push(String(request.messages.at(-1)!.content));
      return { type: "final" as const, content: "summary" };
    };
    const withAgent = {
      steps: [
        { id: 1, task: "tickets", tool: "fetch", args: { source: "tickets" }, optional: true },
        { id: 2, task: "summarize the tickets", depends_on: [1] },
      ],
    };
    const result = await executePlan({ plan: withAgent, tools, model });
    expect(result.status).toBe("completed");
    expect(prompts[0]).toContain("[missing: step 1 is optional and failed; its result is not available]");
    expect(prompts[0]).not.toContain("ticket system is down");
  });

  it("planAndExecute answers without replanning, tells the solver what is missing, and lists it", async () => {
    const { tools } = sources();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: { type: "final", content: JSON.stringify(plan) } },
      { purpose: "solve", reply: { type: "final", content: "Orders and refunds are in; tickets were not available." } },
    ]);
    const result = await planAndExecute({ task: "weekly report", planner, tools });
    expect(result.status).toBe("completed");
    expect(result.replans).toBe(0);
    expect(result.missing).toEqual(["tickets"]);
    const solve = planner.requests.find((request) => request.purpose === "solve")!;
    const text = solve.messages.map((message) => String(message.content)).join("\n");
    expect(text).toContain("Step tickets [s:tickets] (fetch: tickets) — missing: this optional step failed");
    expect(text).toContain("Missing inputs: step tickets failed and the plan went on without them.");
  });

  it("is read from a plan only as true or false", async () => {
    const { tools } = sources();
    const bad = { steps: [{ id: 1, task: "t", tool: "fetch", args: { source: "orders" }, optional: "yes" }] };
    await expect(executePlan({ plan: bad as never, tools })).rejects.toThrow(/optional/);
  });
});
