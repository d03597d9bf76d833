// Approvals that expire (issue 27 §6): a request for approval stands for the tool's
// `approvalExpiresInMs`; past it, the call is denied with that reason when the run is next
// touched, never run on a stale approval.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvedRefund, refundPlan, refundTool } from "../helpers/refund-tool.js";
import { defineTool, executePlan, runAgent } from "planloop";
import { FakeClock } from "planloop/testing";

const plan = refundPlan;
const approved = approvedRefund;

describe("approvals that expire", () => {
  it("a plan step approved in time runs; one approved after its request lapsed is denied, and the refund never runs", async () => {
    const { refunds, refund } = refundTool({ approvalExpiresInMs: 60_000 });
    const paused = await executePlan({ plan, tools: [refund], clock: new FakeClock(1_000) });
    expect(paused.pending).toEqual([expect.objectContaining({ id: "step:1", expiresAt: 61_000 })]);
    const inTime = await executePlan({ plan, tools: [refund], clock: new FakeClock(60_000), resume: paused.state, approvals: approved });
    expect(inTime.status).toBe("completed");
    const late = await executePlan({ plan, tools: [refund], clock: new FakeClock(61_001), resume: paused.state, approvals: approved });
    expect(late.status).toBe("failed");
    expect(late.steps["1"]!.error).toBe(
      `the request to approve "refund" lapsed at ${new Date(61_000).toISOString()}, before it was approved; ask for the call again`,
    );
    expect(refunds).toEqual(["A7 -"]);
  });

  it("a lapsed request is denied when the run is next touched, with no decision at all", async () => {
    const { refund } = refundTool({ approvalExpiresInMs: 60_000 });
    const paused = await executePlan({ plan, tools: [refund], clock: new FakeClock(0) });
    const touched = await executePlan({ plan, tools: [refund], clock: new FakeClock(70_000), resume: paused.state });
    expect(touched).toMatchObject({ status: "failed", steps: { 1: { status: "failed" } } });
  });

  it("holds for the ReAct loop: the model reads the denial", async () => {
    const { refunds, refund } = refundTool({ approvalExpiresInMs: 60_000 });
    let turn = 0;
    const model = async () =>
      turn++ === 0
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "refund", arguments: { order: "A7" } }] }
        : { type: "final" as const, content: "could not refund" };
    const paused = await runAgent({ model, tools: [refund], task: "refund", clock: new FakeClock(0) });
    expect(paused.pending).toEqual([expect.objectContaining({ expiresAt: 60_000 })]);
    const late = await runAgent({
      model,
      tools: [refund],
      task: "refund",
      clock: new FakeClock(90_000),
      resume: paused.state,
      approvals: { [paused.pending![0]!.id]: { approved: true } },
    });
    expect(late.status).toBe("completed");
    expect(late.messages.find((message) => message.role === "tool")).toMatchObject({ content: expect.stringContaining("lapsed at") });
    expect(refunds).toEqual([]);
  });

  it("a run's own approvalExpiresInMs gives every request it makes a deadline; a tool's own wins", async () => {
    const { refunds, refund } = refundTool();
    const paused = await executePlan({ plan, tools: [refund], clock: new FakeClock(1_000), approvalExpiresInMs: 5_000 });
    expect(paused.pending).toEqual([expect.objectContaining({ id: "step:1", expiresAt: 6_000 })]);
    const late = await executePlan({ plan, tools: [refund], clock: new FakeClock(6_001), resume: paused.state, approvals: approved });
    expect(late.steps["1"]!.error).toMatch(/lapsed at/);
    expect(refunds).toEqual([]);
    const own = refundTool({ approvalExpiresInMs: 60_000 });
    const mine = await executePlan({ plan, tools: [own.refund], clock: new FakeClock(0), approvalExpiresInMs: 5_000 });
    expect(mine.pending![0]!.expiresAt).toBe(60_000);
    let turn = 0;
    const model = async () =>
      turn++ === 0
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "refund", arguments: { order: "A7" } }] }
        : { type: "final" as const, content: "done" };
    const loop = await runAgent({ model, tools: [refund], task: "refund", clock: new FakeClock(0), approvalExpiresInMs: 2_000 });
    expect(loop.pending).toEqual([expect.objectContaining({ expiresAt: 2_000 })]);
    await expect(executePlan({ plan, tools: [refund], approvalExpiresInMs: 1.5 })).rejects.toThrow(/approvalExpiresInMs must be/);
  });

  it("is a positive whole number of milliseconds", () => {
    expect(() =>
      defineTool({ name: "t", description: "t", input: z.object({}), needsApproval: true, approvalExpiresInMs: 0, execute: () => 1 }),
    ).toThrow(/approvalExpiresInMs/);
  });
});
