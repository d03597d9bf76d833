import { describe, expect, it } from "vitest";
import { planAndExecute, type PlanloopEvent } from "planloop";
import { ScriptedModel } from "planloop/testing";
import { firstPlan, weeklyReportTools } from "../helpers/weekly-report.js";

const json = (value: unknown) => ({ type: "final" as const, content: `Here is the plan:\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\`` });
const text = (content: string) => ({ type: "final" as const, content });

describe("planAndExecute: seed 001's weekly report", () => {
  it("replans around the renamed column and does not run steps 1 and 3 again", async () => {
    const { calls, tools } = weeklyReportTools();
    const secondPlan = {
      steps: [
        firstPlan.steps[0],
        { id: "2a", task: "read the refunds table's schema", tool: "schema", args: { table: "refunds" }, depends_on: [] },
        {
          id: 2,
          task: "query refunds with the new column",
          tool: "sql",
          args: { query: "select refund_amount from refunds" },
          depends_on: ["2a"],
        },
        firstPlan.steps[2],
        firstPlan.steps[3],
      ],
    };
    const planner = new ScriptedModel([
      { purpose: "plan", reply: json(firstPlan) },
      { purpose: "replan", reply: json(secondPlan) },
      { purpose: "solve", reply: text("2 orders, 35 in refunds, 3 tickets") },
    ]);
    const events: PlanloopEvent[] = [];
    const result = await planAndExecute({
      task: "weekly report",
      planner,
      tools,
      retry: { initialDelayMs: 0 },
      onEvent: (event) => events.push(event),
    });

    expect(result).toMatchObject({
      strategy: "plan-and-execute",
      status: "completed",
      output: "2 orders, 35 in refunds, 3 tickets",
      replans: 1,
    });
    expect(calls.filter((call) => call === "sql select * from orders")).toHaveLength(1);
    expect(calls.filter((call) => call === "sql select * from tickets")).toHaveLength(1);
    expect(calls.filter((call) => call === "sql select amount from refunds")).toHaveLength(2);
    expect(calls).toContain("schema refunds");
    expect(result.stepResults["4"]?.output).toEqual({ orders: 2, refundTotal: 35, tickets: 3 });
    expect(result.planVersions).toHaveLength(2);
    expect(result.usage.modelCalls).toBe(3);
    // Steps started: 1, 2, 3 (4 is skipped), then 2a, 2 and 4; 1 and 3 are reused.
    expect(result.steps).toBe(6);

    const replanRequest = planner.requests[1]!.messages.at(-1)!;
    expect(replanRequest.role === "user" && replanRequest.content).toContain("no such column: amount");
    expect(replanRequest.role === "user" && replanRequest.content).toContain('"total":250');
    expect(events.filter((event) => event.type === "plan-created").map((event) => event.type === "plan-created" && event.version)).toEqual([
      1, 2,
    ]);
    expect(events.find((event) => event.type === "replan-start")).toMatchObject({
      replans: 1,
      reason: expect.stringContaining("step 2 failed"),
    });
    expect(result.trace.at(-1)).toMatchObject({ type: "strategy-end", status: "completed" });
    planner.assertDone();
  });

  it("adds a conversion step when the refunds contradict the plan's currency assumption", async () => {
    const { calls, tools } = weeklyReportTools();
    const sql = tools.find((tool) => tool.name === "sql")!;
    const checkedSql = {
      ...sql,
      check: (rows: unknown) =>
        Array.isArray(rows) && rows.some((row) => (row as { currency?: string }).currency === "USD")
          ? "some refunds are in USD; the plan assumed CNY"
          : undefined,
    };
    const convert = {
      ...sql,
      name: "convert",
      description: "convert USD to CNY",
      execute: ({ query }: { query: string }) => (calls.push(`convert ${query}`), [{ refund_amount: 30 }, { refund_amount: 36 }]),
    };
    const plan1 = {
      steps: [
        firstPlan.steps[0],
        { ...firstPlan.steps[1], args: { query: "select refund_amount from refunds" } },
        firstPlan.steps[2],
        firstPlan.steps[3],
      ],
    };
    const plan2 = {
      steps: [
        ...plan1.steps.slice(0, 3),
        { id: 5, task: "convert USD refunds to CNY", tool: "convert", args: { query: "rate 7.2" }, depends_on: [2] },
        { ...firstPlan.steps[3], args: { orders: "$1", refunds: "$5", tickets: "$3" }, depends_on: [1, 5, 3] },
      ],
    };
    const planner = new ScriptedModel([json(plan1), json(plan2), text("refunds total 66 CNY")]);
    const result = await planAndExecute({ task: "weekly report", planner, tools: [checkedSql, tools[1]!, tools[2]!, convert] });
    expect(result.status).toBe("completed");
    expect(result.replans).toBe(1);
    expect(calls.filter((call) => call.startsWith("sql"))).toHaveLength(3);
    expect(result.stepResults["4"]?.output).toMatchObject({ refundTotal: 66 });
    expect(planner.requests[1]!.messages.at(-1)).toMatchObject({ content: expect.stringContaining("some refunds are in USD") });
  });

  it("adds a classification step when the tickets bring new information", async () => {
    const { calls, tools } = weeklyReportTools();
    const classify = {
      ...tools[1]!,
      name: "classify",
      description: "group tickets by topic",
      execute: () => (calls.push("classify"), { "late delivery": 2, refund: 1 }),
    };
    const plan1 = {
      steps: [
        firstPlan.steps[0],
        { ...firstPlan.steps[1], args: { query: "select refund_amount from refunds" } },
        firstPlan.steps[2],
        firstPlan.steps[3],
      ],
    };
    const plan2 = {
      steps: [...plan1.steps, { id: 6, task: "classify the complaints", tool: "classify", args: { table: "tickets" }, depends_on: [3] }],
    };
    const planner = new ScriptedModel([json(plan1), json(plan2), text("report with a complaint breakdown")]);
    const result = await planAndExecute({
      task: "weekly report",
      planner,
      tools: [...tools, classify],
      observe: ({ step, output }) =>
        step.id === 3 && Array.isArray(output) && output.filter((row) => row.topic === "late delivery").length > 1
          ? { replan: "complaints cluster around late delivery" }
          : undefined,
    });
    expect(result).toMatchObject({ status: "completed", replans: 1 });
    expect(calls.filter((call) => call === "sql select * from tickets")).toHaveLength(1);
    expect(calls).toContain("classify");
    expect(result.stepResults["6"]?.output).toEqual({ "late delivery": 2, refund: 1 });
  });

  it("sends a plan with a cycle back to the planner with the cycle, and runs the fixed plan", async () => {
    const { tools } = weeklyReportTools();
    const cyclic = {
      steps: [
        { id: 1, task: "a", tool: "schema", args: { table: "orders" }, depends_on: [2] },
        { id: 2, task: "b", tool: "schema", args: { table: "refunds" }, depends_on: [1] },
      ],
    };
    const fixed = { steps: [{ ...cyclic.steps[0], depends_on: [] }, cyclic.steps[1]] };
    const planner = new ScriptedModel([json(cyclic), json(fixed), text("done")]);
    const result = await planAndExecute({ task: "columns", planner, tools });
    expect(result.status).toBe("completed");
    const repair = planner.requests[1]!.messages.at(-1)!;
    expect(repair).toMatchObject({ role: "user", content: expect.stringContaining("steps form a cycle: 1 -> 2 -> 1") });
    expect(result.trace.find((event) => event.type === "plan-invalid")).toMatchObject({ attempt: 1 });
  });

  it("fails with the errors after the repair attempts, and after maxReplans", async () => {
    const { tools } = weeklyReportTools();
    const broken = new ScriptedModel([text("no plan"), text("still none"), text("nope")]);
    const noPlan = await planAndExecute({ task: "t", planner: broken, tools });
    expect(noPlan).toMatchObject({ status: "failed", errors: [expect.stringContaining("no JSON")] });
    broken.assertDone();

    const failing = { steps: [{ id: 1, task: "x", tool: "sql", args: { query: "select amount from refunds" } }] };
    const stubborn = new ScriptedModel([json(failing), json(failing), json(failing)]);
    const exhausted = await planAndExecute({ task: "t", planner: stubborn, tools, maxReplans: 2, retry: { maxAttempts: 1 } });
    expect(exhausted).toMatchObject({ status: "failed", replans: 2, reason: expect.stringContaining("no replans left") });
  });

  it("replans when the critic rejects the answer, and accepts the revised one", async () => {
    const { tools } = weeklyReportTools();
    const plan1 = { steps: [firstPlan.steps[0]] };
    const plan2 = { steps: [firstPlan.steps[0], firstPlan.steps[2]] };
    const planner = new ScriptedModel([json(plan1), text("orders only"), json(plan2), text("orders and tickets")]);
    const critic = new ScriptedModel([
      { purpose: "critic", reply: text('{"approved": false, "feedback": "the tickets are missing"}') },
      { purpose: "critic", reply: text('{"approved": true}') },
    ]);
    const result = await planAndExecute({ task: "report", planner, tools, critic: { model: critic } });
    expect(result).toMatchObject({ status: "completed", output: "orders and tickets", replans: 1 });
    expect(planner.requests[2]!.messages.at(-1)).toMatchObject({ content: expect.stringContaining("the tickets are missing") });
    expect(
      result.trace.filter((event) => event.type === "critic-end").map((event) => event.type === "critic-end" && event.approved),
    ).toEqual([false, true]);
  });

  it("a critic's 'NO' rejects the answer and an empty critic reply leaves it unverified", async () => {
    const { tools } = weeklyReportTools();
    const plan1 = { steps: [firstPlan.steps[0]] };
    const no = await planAndExecute({
      task: "report",
      planner: new ScriptedModel([json(plan1), text("draft")]),
      tools,
      maxReplans: 0,
      critic: { model: new ScriptedModel([{ purpose: "critic", reply: text("NO") }]) },
    });
    expect(no).toMatchObject({
      status: "incomplete",
      output: "draft",
      reason: expect.stringContaining("the critic rejected the answer: NO"),
    });
    const silent = await planAndExecute({
      task: "report",
      planner: new ScriptedModel([json(plan1), text("draft")]),
      tools,
      critic: { model: new ScriptedModel([{ purpose: "critic", reply: text("") }]) },
    });
    expect(silent).toMatchObject({ status: "unverified", output: "draft", reason: "the critic's reply was empty" });
    const odd = await planAndExecute({
      task: "report",
      planner: new ScriptedModel([json(plan1), text("draft")]),
      tools,
      maxReplans: 0,
      critic: { review: () => "yes" as never },
    });
    expect(odd).toMatchObject({ status: "incomplete", reason: expect.stringContaining("not { approved: boolean }") });
  });

  it("verify: a rejected answer with no replans left is incomplete; a throwing verifier is unverified", async () => {
    const { tools } = weeklyReportTools();
    const plan1 = { steps: [firstPlan.steps[0]] };
    const rejected = await planAndExecute({
      task: "report",
      planner: new ScriptedModel([json(plan1), text("draft")]),
      tools,
      maxReplans: 0,
      verify: () => ({ passed: false, feedback: "no totals" }),
    });
    expect(rejected).toMatchObject({ status: "incomplete", output: "draft", reason: expect.stringContaining("no totals") });
    const broken = await planAndExecute({
      task: "report",
      planner: new ScriptedModel([json(plan1), text("draft")]),
      tools,
      verify: () => {
        throw new Error("checker down");
      },
    });
    expect(broken).toMatchObject({ status: "unverified", output: "draft", reason: expect.stringContaining("checker down") });
  });
});

describe("planAndExecute prompts", () => {
  it("puts tool descriptions and JSON Schemas in the planning prompt, and takes overrides", async () => {
    const { tools } = weeklyReportTools();
    const planner = new ScriptedModel([json({ steps: [firstPlan.steps[0]] }), text("2 orders")]);
    await planAndExecute({
      task: "count orders",
      planner,
      tools,
      prompts: { solve: ({ task }) => [{ role: "user", content: `SOLVE ${task}` }] },
    });
    const system = planner.requests[0]!.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.role === "system" && system.content).toContain("sql: Run `select <column|*> from <table>` against the shop database");
    expect(system.role === "system" && system.content).toContain('"required":["query"]');
    expect(planner.requests[1]!.messages).toEqual([{ role: "user", content: "SOLVE count orders" }]);
  });

  it("uses the executor model for agent steps and the planner for planning", async () => {
    const { tools } = weeklyReportTools();
    const planner = new ScriptedModel([json({ steps: [{ id: 1, task: "summarise the week" }] }), text("summary")]);
    const executor = new ScriptedModel([{ purpose: "act", reply: text("a quiet week") }]);
    const result = await planAndExecute({ task: "summary", planner, executor, tools });
    expect(result.status).toBe("completed");
    expect(result.stepResults["1"]?.output).toBe("a quiet week");
    executor.assertDone();
    planner.assertDone();
  });
});

describe("planAndExecute waiting for approval", () => {
  it("returns waiting with a state, and resumes without planning again or re-running steps", async () => {
    const { calls, tools } = weeklyReportTools();
    const sql = tools.find((tool) => tool.name === "sql")!;
    const guarded = { ...sql, name: "sql_admin", needsApproval: true };
    const plan = {
      steps: [
        { id: 1, task: "orders", tool: "sql", args: { query: "select * from orders" } },
        { id: 2, task: "tickets (needs approval)", tool: "sql_admin", args: { query: "select * from tickets" }, depends_on: [1] },
      ],
    };
    const planner = new ScriptedModel([
      { purpose: "plan", reply: json(plan) },
      { purpose: "solve", reply: text("2 orders, 3 tickets") },
    ]);
    const paused = await planAndExecute({ task: "count", planner, tools: [...tools, guarded] });
    expect(paused.status).toBe("waiting");
    expect(paused.pending).toEqual([expect.objectContaining({ callId: "step:2", name: "sql_admin" })]);
    const state = JSON.parse(JSON.stringify(paused.state));
    const resumed = await planAndExecute({
      task: "count",
      planner,
      tools: [...tools, guarded],
      resume: state,
      approvals: { "step:2": { approved: true } },
    });
    expect(resumed).toMatchObject({ status: "completed", output: "2 orders, 3 tickets", replans: 0 });
    expect(calls).toEqual(["sql select * from orders", "sql select * from tickets"]);
    expect(resumed.usage.toolCalls).toBe(2);
    planner.assertDone();
    await expect(planAndExecute({ task: "count", planner, tools, resume: { kind: "other" } as never })).rejects.toThrow(
      /not a planAndExecute state/,
    );
  });
});
