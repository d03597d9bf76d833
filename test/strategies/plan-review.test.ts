// reviewPlan: every new plan version stops for review (true) or is decided in code (a
// function), before any of its steps runs: approve, reject with feedback, or an edited plan.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, llmCompiler, memoryStore, planAndExecute, rewoo, type PendingPlan, type PlanReviewContext } from "planloop";
import { ScriptedModel } from "planloop/testing";

function fetchTools() {
  const calls: string[] = [];
  const fetchSource = defineTool({
    name: "fetch",
    description: "Fetch a source",
    input: z.object({ source: z.string() }),
    execute: ({ source }) => (calls.push(source), `rows of ${source}`),
  });
  return { calls, tools: [fetchSource] };
}

const text = (content: string) => ({ type: "final" as const, content });
const plan = (...sources: string[]) =>
  JSON.stringify({ steps: sources.map((source, index) => ({ id: index + 1, task: `fetch ${source}`, tool: "fetch", args: { source } })) });
const pendingOf = (result: { pending?: unknown[] }) => result.pending?.[0] as PendingPlan;

describe("reviewPlan: true", () => {
  it("stops before anything runs, with the plan pending; approved, it runs and answers", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan("sales", "refunds")) },
      { purpose: "solve", reply: text("done") },
    ]);
    const paused = await planAndExecute({ task: "weekly report", planner, tools, reviewPlan: true });
    expect(paused.status).toBe("waiting");
    expect(calls).toEqual([]);
    const pending = pendingOf(paused);
    expect(pending).toMatchObject({
      id: "plan:1",
      kind: "plan",
      version: 1,
      changes: { added: ["1", "2"], kept: [], changed: [], dropped: [] },
    });
    expect(pending.plan.steps.map((step) => step.args)).toEqual([{ source: "sales" }, { source: "refunds" }]);
    expect(paused.trace.filter((event) => event.type === "plan-review")).toEqual([
      expect.objectContaining({ version: 1, decision: "waiting" }),
    ]);
    const state = JSON.parse(JSON.stringify(paused.state));
    const resumed = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: true,
      resume: state,
      approvals: { "plan:1": { approved: true } },
    });
    expect(resumed).toMatchObject({ status: "completed", output: "done", replans: 0 });
    expect(calls).toEqual(["sales", "refunds"]);
    planner.assertDone();
  });

  it("a rejection goes to the planner with its feedback, and the new plan is reviewed in turn", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan("sales", "everything")) },
      { purpose: "replan", reply: text(plan("sales")) },
      { purpose: "solve", reply: text("sales only") },
    ]);
    const first = await planAndExecute({ task: "weekly report", planner, tools, reviewPlan: true });
    const second = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: true,
      resume: first.state!,
      approvals: { "plan:1": { approved: false, reason: "never fetch everything" } },
    });
    expect(second.status).toBe("waiting");
    expect(calls).toEqual([]);
    const replanAsked = JSON.stringify(planner.requests[1]!.messages);
    expect(replanAsked).toContain("never fetch everything");
    expect(pendingOf(second)).toMatchObject({ id: "plan:2", version: 2, reason: expect.stringContaining("never fetch everything") });
    const done = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: true,
      resume: second.state!,
      approvals: { "plan:2": { approved: true } },
    });
    expect(done).toMatchObject({ status: "completed", output: "sales only", replans: 1 });
    expect(done.planVersions).toHaveLength(2);
    expect(calls).toEqual(["sales"]);
  });

  it("an edited plan runs instead; an invalid edit is refused with its problems and the state stays usable", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan("sales")) },
      { purpose: "solve", reply: text("edited") },
    ]);
    const paused = await planAndExecute({ task: "weekly report", planner, tools, reviewPlan: true });
    const bad = { steps: [{ id: 1, task: "x", tool: "mail", args: {} }] };
    await expect(
      planAndExecute({
        task: "weekly report",
        planner,
        tools,
        reviewPlan: true,
        resume: paused.state!,
        approvals: { "plan:1": { approved: true, plan: bad } },
      }),
    ).rejects.toThrow(/edited plan given for plan:1 is invalid: .*mail/);
    const edited = { steps: [{ id: 1, task: "fetch sales of last week", tool: "fetch", args: { source: "sales-2026-w47" } }] };
    const done = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: true,
      resume: paused.state!,
      approvals: { "plan:1": { approved: true, plan: edited } },
    });
    expect(done.status).toBe("completed");
    expect(calls).toEqual(["sales-2026-w47"]);
    expect(done.plan?.steps[0]?.args).toEqual({ source: "sales-2026-w47" });
    expect(done.trace.filter((event) => event.type === "plan-review").map((event) => event.decision)).toEqual(["edited"]);
  });

  it("refuses a decision for a plan that is not waiting, and one whose digest is not the plan's", async () => {
    const { tools } = fetchTools();
    const planner = new ScriptedModel([{ purpose: "plan", reply: text(plan("sales")) }]);
    const paused = await planAndExecute({ task: "weekly report", planner, tools, reviewPlan: true });
    const again = (approvals: Record<string, { approved: true; digest?: string }>) =>
      planAndExecute({ task: "weekly report", planner, tools, reviewPlan: true, resume: paused.state!, approvals });
    await expect(again({ "plan:3": { approved: true } })).rejects.toThrow("plan:3 is not waiting for review; plan:1 is");
    await expect(again({ "plan:1": { approved: true, digest: "0000" } })).rejects.toThrow(/names digest 0000/);
    const edited = JSON.parse(JSON.stringify(paused.state));
    edited.review.pending.plan.steps[0].args.source = "everything";
    await expect(
      planAndExecute({ task: "weekly report", planner, tools, resume: edited, approvals: { "plan:1": { approved: true } } }),
    ).rejects.toThrow(/changed after it paused/);
  });
});

describe("reviewPlan as a function", () => {
  it("decides in code, sees what changed, and is not asked again for a replan that only keeps or drops steps", async () => {
    const { calls, tools } = fetchTools();
    const flaky = defineTool({
      name: "flaky",
      description: "Fails",
      input: z.object({}),
      execute: () => {
        throw new Error("down");
      },
    });
    const seen: Array<{ version: number; changes: PlanReviewContext["changes"] }> = [];
    const planner = new ScriptedModel([
      {
        purpose: "plan",
        reply: text(
          JSON.stringify({
            steps: [
              { id: 1, task: "s", tool: "fetch", args: { source: "sales" } },
              { id: 2, task: "f", tool: "flaky", args: {} },
            ],
          }),
        ),
      },
      { purpose: "replan", reply: text(JSON.stringify({ steps: [{ id: 1, task: "s", tool: "fetch", args: { source: "sales" } }] })) },
      { purpose: "solve", reply: text("sales") },
    ]);
    const result = await planAndExecute({
      task: "weekly report",
      planner,
      tools: [...tools, flaky],
      retry: { maxAttempts: 1 },
      reviewPlan: (_plan, context) => (seen.push({ version: context.version, changes: context.changes }), { approved: true }),
    });
    expect(result).toMatchObject({ status: "completed", replans: 1 });
    expect(seen).toEqual([{ version: 1, changes: { kept: [], added: ["1", "2"], changed: [], dropped: [] } }]);
    expect(result.trace.filter((event) => event.type === "plan-review").map((event) => event.decision)).toEqual(["approved", "unchanged"]);
    // The kept step's result is reused, not fetched again.
    expect(calls).toEqual(["sales"]);
  });

  it("a rejection in code makes the planner write again; out of new plans, the run fails with the feedback", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan("everything")) },
      { purpose: "replan", reply: text(plan("everything", "sales")) },
    ]);
    const result = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      maxReplans: 1,
      reviewPlan: (reviewed) =>
        reviewed.steps.some((step) => (step.args as { source: string }).source === "everything")
          ? { approved: false, reason: "no full dumps" }
          : { approved: true },
    });
    expect(result.status).toBe("failed");
    expect(result.reason).toContain("the reviewer rejected plan 2: no full dumps (no new plans left after 1)");
    expect(calls).toEqual([]);
    planner.assertDone();
  });

  it("an invalid plan from a reviewer function fails the run with the plan's problems", async () => {
    const { tools } = fetchTools();
    const planner = new ScriptedModel([{ purpose: "plan", reply: text(plan("sales")) }]);
    const result = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: () => ({ approved: true, plan: { steps: [{ id: 1, task: "x", depends_on: [2] }] } }),
    });
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("edited plan 1 is invalid") });
    expect(result.errors?.join(" ")).toMatch(/2/);
  });
});

describe("reviewPlan in ReWOO and LLMCompiler", () => {
  it("LLMCompiler reads the whole streamed plan before any task starts, then runs it once approved", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", stream: ['1. fetch({"source": "sales"})\n', '2. fetch({"source": "refunds"})\n', "3. join()"] },
      { purpose: "join", reply: text("Action: Finish(two sources)") },
    ]);
    const paused = await llmCompiler({ task: "weekly report", planner, tools, reviewPlan: true });
    expect(paused.status).toBe("waiting");
    expect(calls).toEqual([]);
    expect(pendingOf(paused).plan.steps).toHaveLength(2);
    const done = await llmCompiler({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: true,
      resume: paused.state!,
      approvals: { "plan:1": { approved: true } },
    });
    expect(done).toMatchObject({ status: "completed", output: "two sources" });
    expect(calls.sort()).toEqual(["refunds", "sales"]);
    planner.assertDone();
  });

  it("ReWOO, which never replans, rewrites a rejected plan (up to maxRepairs times)", async () => {
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text('#E1 = fetch[{"source": "everything"}]') },
      { purpose: "replan", reply: text('#E1 = fetch[{"source": "sales"}]') },
      { purpose: "solve", reply: text("sales") },
    ]);
    let reviews = 0;
    const result = await rewoo({
      task: "weekly report",
      planner,
      tools,
      reviewPlan: () => (++reviews === 1 ? { approved: false, reason: "too wide" } : { approved: true }),
    });
    expect(result).toMatchObject({ status: "completed", output: "sales" });
    expect(calls).toEqual(["sales"]);
    expect(JSON.stringify(planner.requests[1]!.messages)).toContain("too wide");
  });
});

describe("reviewPlan with a store", () => {
  it("waits by id; the decision given with the same id is kept, and the planner is not asked again", async () => {
    const { calls, tools } = fetchTools();
    const store = memoryStore();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan("sales")) },
      { purpose: "solve", reply: text("kept") },
    ]);
    const options = { task: "weekly report", planner, tools, reviewPlan: true, store, runId: "weekly" } as const;
    const paused = await planAndExecute(options);
    expect(paused.status).toBe("waiting");
    expect(await planAndExecute(options)).toMatchObject({ status: "waiting" });
    const done = await planAndExecute({ ...options, approvals: { "plan:1": { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "kept" });
    expect(calls).toEqual(["sales"]);
    const journal = (await store.getRun("weekly"))!.journal;
    expect(journal.filter((entry) => entry.kind === "human-decision")).toEqual([
      { kind: "human-decision", id: "plan:1", decision: { approved: true }, at: expect.any(Number) },
    ]);
    planner.assertDone();
  });

  it("LLMCompiler waits by id too: its buffered plan is kept, and the approved plan runs once", async () => {
    const { calls, tools } = fetchTools();
    const store = memoryStore();
    const planner = new ScriptedModel([
      { purpose: "plan", stream: ['1. fetch({"source": "sales"})\n', "2. join()"] },
      { purpose: "join", reply: text("Action: Finish(kept)") },
    ]);
    const options = { task: "weekly report", planner, tools, reviewPlan: true, store, runId: "compiled" } as const;
    expect(await llmCompiler(options)).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ id: "plan:1" })] });
    expect(calls).toEqual([]);
    expect(await llmCompiler({ ...options, approvals: { "plan:1": { approved: true } } })).toMatchObject({
      status: "completed",
      output: "kept",
    });
    expect(calls).toEqual(["sales"]);
    planner.assertDone();
  });
});
