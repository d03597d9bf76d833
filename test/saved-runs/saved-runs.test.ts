// What every earlier version saved, today's code still reads (test/saved-runs/<version>/, written
// by scripts/save-runs.ts with that version checked out): each run waits for the refund's
// approval; continued from its journal by id, or from its saved state, it refunds once and ends.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeMode, executePlan, memoryStore, planAndExecute, runAgent, type PlanRunResult, type StoredRun } from "planloop";
import { codeModel, loopModel, plannerModel, refundPlan, refundTools, scenarios, stateSecret, type Calls } from "./scenarios.js";

const root = import.meta.dirname;
const versions = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// A saved state is read back as the entry point reads any `resume`: checked there, not here.
type Saved = { state: never; runs: StoredRun[] };
const read = (version: string, name: string) => JSON.parse(readFileSync(join(root, version, `${name}.json`), "utf8")) as Saved;

/** A store holding the saved journals as they were written. */
function storeOf(saved: Saved) {
  const store = memoryStore();
  for (const run of saved.runs) {
    store.createRun({ runId: run.runId, entry: run.entry, at: run.createdAt });
    store.append(run.runId, run.journal, run.updatedAt);
    if (run.status === "finished") store.finishRun(run.runId, run.result, run.updatedAt);
  }
  return store;
}

/** The id of the one call the saved run waits for (from its journal's last state, as a person reads it in the ui). */
function pendingId(result: { pending?: Array<{ id: string }> } | PlanRunResult): string {
  return (result as { pending: Array<{ id: string }> }).pending[0]!.id;
}

describe.each(versions)("runs saved by %s", (version) => {
  it("a ReAct loop continues from its journal by id, and from its saved state", async () => {
    const saved = read(version, "loop");
    const fromState = { made: [] } as Calls;
    const waiting = await runAgent({ model: loopModel, tools: refundTools(fromState), resume: saved.state, stateSecret, maxSteps: 8 });
    expect(waiting.status).toBe("waiting");
    const approvals = { [pendingId(waiting)]: { approved: true } };
    const calls = { made: [] } as Calls;
    const options = { model: loopModel, tools: refundTools(calls), task: "refund A1", stateSecret, maxSteps: 8 };
    const continued = await runAgent({ ...options, store: storeOf(saved), runId: scenarios.loop.runId, approvals });
    expect(continued).toMatchObject({ status: "completed", output: "refunded 120 on A1" });
    expect(calls.made).toEqual(["refund A1 120"]);
    // The whole history came back: three lookups before the refund.
    expect(continued.messages.filter((message) => message.role === "tool").map((message) => message.name)).toEqual([
      "lookup",
      "lookup",
      "lookup",
      "refund",
    ]);
    const resumed = await runAgent({ ...options, tools: refundTools(fromState), resume: saved.state, approvals });
    expect(resumed).toMatchObject({ status: "completed", output: "refunded 120 on A1" });
    expect(fromState.made).toEqual(["refund A1 120"]);
  });

  it("a plan run continues from its journal by id, and from its saved state", async () => {
    const saved = read(version, "plan");
    const calls = { made: [] } as Calls;
    const store = storeOf(saved);
    const again = await executePlan({ plan: refundPlan, tools: refundTools(calls), store, runId: scenarios.plan.runId, stateSecret });
    expect(again.status).toBe("waiting");
    const approvals = { [pendingId(again)]: { approved: true } };
    const continued = await executePlan({
      plan: refundPlan,
      tools: refundTools(calls),
      store,
      runId: scenarios.plan.runId,
      stateSecret,
      approvals,
    });
    expect(continued).toMatchObject({ status: "completed", steps: { "2": { status: "succeeded", output: "refunded 120 on A1" } } });
    const fromState = { made: [] } as Calls;
    const resumed = await executePlan({ plan: refundPlan, tools: refundTools(fromState), resume: saved.state, stateSecret, approvals });
    expect(resumed.status).toBe("completed");
    expect([calls.made, fromState.made]).toEqual([["refund A1 120"], ["refund A1 120"]]);
  });

  it("a Plan-and-Execute run continues from its journal by id, asking its planner nothing again", async () => {
    const saved = read(version, "plan-and-execute");
    const calls = { made: [] } as Calls;
    const asked: string[] = [];
    const planner = (request: Parameters<typeof plannerModel>[0]) => (asked.push(request.purpose), plannerModel(request));
    const options = {
      task: "refund A1",
      planner,
      tools: refundTools(calls),
      store: storeOf(saved),
      runId: scenarios.planAndExecute.runId,
      stateSecret,
    };
    const again = await planAndExecute(options);
    expect(again.status).toBe("waiting");
    const continued = await planAndExecute({ ...options, approvals: { [pendingId(again)]: { approved: true } } });
    expect(continued).toMatchObject({ status: "completed", output: "refunded 120 on A1" });
    expect(calls.made).toEqual(["refund A1 120"]);
    expect(asked).toEqual(["solve"]);
  });

  // Code mode was added in wave 5: the versions before it saved none.
  it.skipIf(!existsSync(join(root, version, "code-mode.json")))(
    "a code-mode run continues from its journal by id, and from its saved state: the lookup is read back, the program not asked for again",
    async () => {
      const saved = read(version, "code-mode");
      const calls = { made: [] } as Calls;
      const asked: string[] = [];
      const model = (request: Parameters<typeof codeModel>[0]) => (asked.push(request.purpose), codeModel(request));
      const options = {
        task: "refund A1",
        model,
        tools: refundTools(calls),
        store: storeOf(saved),
        runId: scenarios.code.runId,
        stateSecret,
      };
      const again = await codeMode(options);
      expect(again.status).toBe("waiting");
      const approvals = { [pendingId(again)]: { approved: true } };
      const continued = await codeMode({ ...options, approvals });
      expect(continued).toMatchObject({ status: "completed", output: "refunded 120 on A1" });
      expect(calls.made).toEqual(["refund A1 120"]);
      expect(asked).toEqual(["solve"]);
      const fromState = { made: [] } as Calls;
      const resumed = await codeMode({
        task: "refund A1",
        model: codeModel,
        tools: refundTools(fromState),
        resume: saved.state,
        stateSecret,
        approvals,
      });
      expect(resumed).toMatchObject({ status: "completed", output: "refunded 120 on A1" });
      expect(fromState.made).toEqual(["refund A1 120"]);
    },
  );
});
