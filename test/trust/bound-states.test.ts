// A signed state belongs to its run (issue 27 §3): it continues that run, under its id, and is
// refused for any other, so one waiting refund cannot be started again as runs B and C.
import { describe, expect, it } from "vitest";
import { approvedRefund, refundPlan, refundTool } from "../helpers/refund-tool.js";
import { executePlan, memoryStore, runAgent } from "planloop";

const secret = "a secret of sixteen or more";

const plan = refundPlan;
const approved = approvedRefund;

describe("a signed state is bound to its run", () => {
  it("is refused for another run id, with or without a store; its own id (or none) continues it", async () => {
    const { refunds, refund } = refundTool();
    const paused = await executePlan({ plan, tools: [refund], runId: "A", stateSecret: secret });
    expect(paused.state).toMatchObject({ runId: "A" });
    for (const runId of ["B", "C"]) {
      await expect(
        executePlan({ plan, tools: [refund], runId, store: memoryStore(), stateSecret: secret, resume: paused.state, approvals: approved }),
      ).rejects.toThrow(`resume: this state belongs to run "A", not "${runId}"`);
    }
    const resumed = await executePlan({ plan, tools: [refund], stateSecret: secret, resume: paused.state, approvals: approved });
    expect(resumed).toMatchObject({ status: "completed", runId: "A" });
    expect(refunds).toEqual(["A7 -"]);
  });

  it("an edited run id breaks the signature", async () => {
    const { refund } = refundTool();
    const paused = await executePlan({ plan, tools: [refund], runId: "A", stateSecret: secret });
    const moved = { ...paused.state!, runId: "B" };
    await expect(executePlan({ plan, tools: [refund], stateSecret: secret, resume: moved as never, approvals: approved })).rejects.toThrow(
      /signature does not match/,
    );
  });

  it("holds for the ReAct loop too", async () => {
    const { refund } = refundTool();
    let turn = 0;
    const model = async () =>
      turn++ === 0
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "refund", arguments: { order: "A7" } }] }
        : { type: "final" as const, content: "done" };
    const paused = await runAgent({ model, tools: [refund], task: "refund", runId: "loop-A", stateSecret: secret });
    expect(paused.status).toBe("waiting");
    await expect(
      runAgent({ model, tools: [refund], task: "refund", runId: "loop-B", stateSecret: secret, resume: paused.state }),
    ).rejects.toThrow(/belongs to run "loop-A", not "loop-B"/);
  });
});
