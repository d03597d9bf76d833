// planAndExecute({ replanEarly: true }): the replanner starts while independent steps still run.
import { describe, expect, it } from "vitest";
import { planAndExecute } from "planloop";
import { FakeClock, ScriptedModel } from "planloop/testing";
import { summarizeTrace } from "../../src/trace/trace-model.js";
import { workStep, workTool } from "../helpers/timed-tools.js";

const json = (value: unknown) => ({ type: "final" as const, content: JSON.stringify(value) });
const text = (content: string) => ({ type: "final" as const, content });

/** Step 1 fails at 10 ms; step 2, independent, takes 300 ms; step 3 needs both. */
const firstPlan = { steps: [workStep(1, 10, [], { fail: true }), workStep(2, 300, [], { fail: false }), workStep(3, 5, [1, 2])] };
const fixedPlan = { steps: [workStep("1b", 10), workStep(2, 300, [], { fail: false }), workStep(3, 5, ["1b", 2])] };

/** A planner reply that writes `plan` after 200 ms on the clock. */
type SlowReplan = (plan: unknown) => () => Promise<ReturnType<typeof json>>;

/** A work tool on a fake clock, and a planner whose replans take 200 ms each. */
function setup(turns: (slowReplan: SlowReplan) => ConstructorParameters<typeof ScriptedModel>[0]) {
  const clock = new FakeClock();
  const { tool, log } = workTool(clock);
  const slowReplan: SlowReplan = (plan) => async () => (await clock.sleep(200), json(plan));
  return { clock, tool, log, planner: new ScriptedModel(turns(slowReplan), { clock }) };
}

/** Plan, a slow replan to `fixedPlan`, then the answer. */
const oneReplan = (slowReplan: SlowReplan) => [
  { purpose: "plan" as const, reply: json(firstPlan) },
  { purpose: "replan" as const, reply: slowReplan(fixedPlan) },
  { purpose: "solve" as const, reply: text("done") },
];

describe("planAndExecute with replanEarly", () => {
  it("writes the new plan while the independent step still runs, and reuses that step", async () => {
    const { clock, tool, log, planner } = setup(oneReplan);
    const result = await clock.run(
      planAndExecute({ task: "report", planner, tools: [tool], clock, retry: { maxAttempts: 1 }, replanEarly: true }),
    );
    expect(result).toMatchObject({ status: "completed", output: "done", replans: 1 });
    // The replan ran from 10 to 210 ms, under step 2 (0-300): the new plan starts at 300, not 500.
    expect(log.started.filter((entry) => entry.step === "1b")).toEqual([{ step: "1b", at: 300 }]);
    expect(log.started.filter((entry) => entry.step === "2")).toHaveLength(1);
    const replanPrompt = String(planner.requests[1]!.messages.at(-1)!.content);
    expect(replanPrompt).toMatch(/Step 2 \(work: work 2\) — not finished yet/);
    expect(replanPrompt).toMatch(/step 1 failed: .*1 broke/);
    planner.assertDone();
  });

  it("without it, the same run replans only once step 2 has ended", async () => {
    const { clock, tool, log, planner } = setup(oneReplan);
    await clock.run(planAndExecute({ task: "report", planner, tools: [tool], clock, retry: { maxAttempts: 1 } }));
    expect(log.started.filter((entry) => entry.step === "1b")).toEqual([{ step: "1b", at: 500 }]);
  });

  it("drops the early plan when more went wrong after it started, and asks again with everything", async () => {
    const bothFail = { steps: [firstPlan.steps[0]!, workStep(2, 300, [], { fail: true }), firstPlan.steps[2]!] };
    const bothFixed = { steps: [workStep("1b", 10), workStep("2b", 10), workStep(3, 5, ["1b", "2b"])] };
    const { clock, tool, planner } = setup((slowReplan) => [
      { purpose: "plan", reply: json(bothFail) },
      { purpose: "replan", reply: slowReplan(fixedPlan) },
      { purpose: "replan", reply: json(bothFixed) },
      { purpose: "solve", reply: text("done") },
    ]);
    const result = await clock.run(
      planAndExecute({ task: "report", planner, tools: [tool], clock, retry: { maxAttempts: 1 }, replanEarly: true }),
    );
    expect(result).toMatchObject({ status: "completed", replans: 1 });
    // The trace tells the early, dropped replan from the one whose plan ran: one replan in all.
    const starts = result.trace.filter((event) => event.type === "replan-start");
    expect(starts.map((event) => event.type === "replan-start" && [event.replans, event.early === true])).toEqual([
      [1, true],
      [1, false],
    ]);
    expect(summarizeTrace(result.trace).replans.map((replan) => replan.dropped === true)).toEqual([true, false]);
    expect(result.planVersions.at(-1)).toEqual(
      expect.objectContaining({ steps: expect.arrayContaining([expect.objectContaining({ id: "2b" })]) }),
    );
    const second = String(planner.requests[2]!.messages.at(-1)!.content);
    expect(second).toMatch(/step 1 failed/);
    expect(second).toMatch(/step 2 failed/);
    planner.assertDone();
  });
});
