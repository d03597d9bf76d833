// Every strategy takes a store and a runId: a finished run's id hands back its result and asks
// no model; a run cut short continues by id, reading its kept answers instead of asking again
// and running only the steps that had not ended.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  llmCompiler,
  memoryStore,
  planAndExecute,
  react,
  rewoo,
  runStrategy,
  type ModelAdapter,
  type ModelRequest,
  type TextStreamPart,
} from "planloop";
import { ScriptedModel } from "planloop/testing";
import { abandoned, dyingLease, dyingStore, takeOver } from "../helpers/dying-store.js";

const text = (content: string) => ({ type: "final" as const, content });
const never = () => new Promise<never>(() => {});
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** `fetch` tools whose calls are logged with their key; `hang` names calls that never end (the process "dies" in them). */
function fetchTools(hang: string[] = []) {
  const calls: string[] = [];
  const fetch = defineTool({
    name: "fetch",
    description: "Fetch a source",
    input: z.object({ source: z.string() }),
    execute: async ({ source }, { idempotencyKey }) => {
      calls.push(`${source} ${idempotencyKey ?? "-"}`);
      if (hang.includes(source)) await never();
      return `data of ${source}`;
    },
  });
  return { calls, tools: [fetch] };
}

const jsonPlan = JSON.stringify({
  steps: [
    { id: "a", task: "fetch a", tool: "fetch", args: { source: "a" } },
    { id: "b", task: "fetch b", tool: "fetch", args: { source: "b" }, depends_on: ["a"] },
  ],
});

describe("durable planAndExecute", () => {
  it("a finished run's id hands back its stored result: no model is asked, no tool runs", async () => {
    const store = memoryStore();
    const { calls, tools } = fetchTools();
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(jsonPlan) },
      { purpose: "solve", reply: text("a and b") },
    ]);
    const first = await planAndExecute({ task: "fetch both", planner, tools, store, runId: "pe-1" });
    expect(first).toMatchObject({ status: "completed", output: "a and b", runId: "pe-1" });
    expect(calls).toEqual(["a pe-1/plan:1/a", "b pe-1/plan:1/b"]);
    const again = await planAndExecute({ task: "fetch both", planner, tools, store, runId: "pe-1" });
    expect(again).toEqual(JSON.parse(JSON.stringify(first)));
    expect(calls).toHaveLength(2);
    planner.assertDone();
    expect(store.getRun("pe-1")).toMatchObject({ entry: "planAndExecute", status: "finished" });
    expect(store.getRun("pe-1/plan:1")).toMatchObject({ entry: "executePlan", status: "finished" });
  });

  it("a run that died in a step continues by id: the plan is not asked for again, the step that ended does not run again", async () => {
    const store = memoryStore();
    const dying = fetchTools(["b"]);
    const planner = new ScriptedModel([{ purpose: "plan", reply: text(jsonPlan) }]);
    const crashed = dyingStore(store);
    abandoned(planAndExecute({ task: "fetch both", planner, tools: dying.tools, store: crashed.store, lease: dyingLease, runId: "pe-2" }));
    await settle();
    crashed.die();
    expect(dying.calls).toEqual(["a pe-2/plan:1/a", "b pe-2/plan:1/b"]);
    planner.assertDone();

    const { calls, tools } = fetchTools();
    const after = new ScriptedModel([{ purpose: "solve", reply: text("a and b, after a restart") }]);
    const result = await planAndExecute({ task: "fetch both", planner: after, tools, store, runId: "pe-2", ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "a and b, after a restart", runId: "pe-2" });
    expect(calls).toEqual(["b pe-2/plan:1/b"]); // the same key as the call cut short
    after.assertDone();
    expect(result.stepResults).toMatchObject({ a: { status: "succeeded", output: "data of a" }, b: { status: "succeeded" } });
    // Totals as if there had been no restart: the plan and the solve, and both fetches.
    expect(result.usage).toMatchObject({ modelCalls: 2, toolCalls: 2 });
  });

  it("a run waiting for approval stays open in the store; the same id with the approval finishes it, and a third call runs nothing", async () => {
    const store = memoryStore();
    const refunds: string[] = [];
    const refund = defineTool({
      name: "refund",
      description: "Refund an order",
      input: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }, { idempotencyKey }) => (refunds.push(`${order} ${idempotencyKey}`), `refunded ${order}`),
    });
    const plan = JSON.stringify({ steps: [{ id: 1, task: "refund A7", tool: "refund", args: { order: "A7" } }] });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(plan) },
      { purpose: "solve", reply: text("refunded A7") },
    ]);
    const options = { task: "refund A7", planner, tools: [refund], store, runId: "pe-3" };
    const paused = await planAndExecute(options);
    expect(paused).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ callId: "step:1" })] });
    expect(await store.getRun("pe-3")).toMatchObject({ status: "running" });
    const approved = await planAndExecute({ ...options, approvals: { "step:1": { approved: true } } });
    expect(approved).toMatchObject({ status: "completed", output: "refunded A7" });
    const third = await planAndExecute({ ...options, approvals: { "step:1": { approved: true } } });
    expect(third.output).toBe("refunded A7");
    expect(refunds).toEqual(["A7 pe-3/plan:1/1"]);
    planner.assertDone();
  });
});

describe("durable planAndExecute across replans", () => {
  it("the approvals go to the plan version that waits for them, not to the one that finished before it", async () => {
    const store = memoryStore();
    const paid: string[] = [];
    const broken = defineTool({
      name: "broken",
      description: "fails",
      input: z.object({}),
      execute: () => {
        throw Object.assign(new Error("gone"), { retryable: false });
      },
    });
    const pay = defineTool({
      name: "pay",
      description: "pays",
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }, { idempotencyKey }) => (paid.push(`${amount} ${idempotencyKey}`), "paid"),
    });
    const planner = new ScriptedModel([
      { purpose: "plan", reply: text(JSON.stringify({ steps: [{ id: 1, task: "try", tool: "broken", args: {} }] })) },
      { purpose: "replan", reply: text(JSON.stringify({ steps: [{ id: 2, task: "pay", tool: "pay", args: { amount: 5 } }] })) },
      { purpose: "solve", reply: text("paid 5") },
    ]);
    const options = { task: "pay", planner, tools: [broken, pay], store, runId: "pe-4" };
    const waiting = await planAndExecute(options);
    expect(waiting).toMatchObject({ status: "waiting", replans: 1, pending: [expect.objectContaining({ callId: "step:2" })] });
    const done = await planAndExecute({ ...options, approvals: { "step:2": { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "paid 5", replans: 1 });
    expect(paid).toEqual(["5 pe-4/plan:2/2"]);
    planner.assertDone();
  });
});

describe("durable ReWOO", () => {
  it("continues a run that died mid-plan without planning again, and hands back a finished one", async () => {
    const store = memoryStore();
    const planner = new ScriptedModel([{ purpose: "plan", reply: text('#E1 = fetch[{"source": "a"}]\n#E2 = fetch[{"source": "b"}]') }]);
    const dying = fetchTools(["b"]);
    const crashed = dyingStore(store);
    abandoned(
      rewoo({ task: "fetch", planner, tools: dying.tools, store: crashed.store, lease: dyingLease, runId: "rw-1", concurrency: 1 }),
    );
    await settle();
    crashed.die();
    expect(dying.calls).toEqual(["a rw-1/plan:1/1", "b rw-1/plan:1/2"]);
    const { calls, tools } = fetchTools();
    const solver = new ScriptedModel([{ purpose: "solve", reply: text("both") }]);
    const result = await rewoo({ task: "fetch", planner: solver, tools, store, runId: "rw-1", ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "both" });
    expect(calls).toEqual(["b rw-1/plan:1/2"]);
    expect(await rewoo({ task: "fetch", planner: solver, tools, store, runId: "rw-1" })).toMatchObject({ output: "both" });
    solver.assertDone();
  });
});

/** A planner whose stream writes `lines`, then either ends or never does (the process dies while it streams). */
function streamingPlanner(lines: string[], options: { hangAfter?: boolean }): ModelAdapter & { asked: number } {
  const model = {
    asked: 0,
    generate: () => Promise.reject(new Error("this planner only streams")),
    async *streamText(_request: ModelRequest): AsyncGenerator<TextStreamPart> {
      model.asked += 1;
      for (const line of lines) yield { type: "text", text: `${line}\n` };
      if (options.hangAfter) await never();
    },
  };
  return model;
}

describe("durable LLMCompiler", () => {
  it("a plan stream cut short is kept up to its last line: the restarted run does not ask the planner again, and runs only what had not ended", async () => {
    const store = memoryStore();
    const planner = streamingPlanner(['1. fetch({"source": "a"})', '2. fetch({"source": "b"})'], { hangAfter: true });
    const dying = fetchTools(["b"]);
    const crashed = dyingStore(store);
    abandoned(llmCompiler({ task: "fetch", planner, tools: dying.tools, store: crashed.store, lease: dyingLease, runId: "lc-1" }));
    await settle();
    crashed.die();
    expect(dying.calls.sort()).toEqual(["a lc-1/plan:1/1", "b lc-1/plan:1/2"]);

    const { calls, tools } = fetchTools();
    const joiner = new ScriptedModel([{ purpose: "join", reply: text("FINISH: a and b") }]);
    const restarted = streamingPlanner(["never asked"], {});
    const result = await llmCompiler({ task: "fetch", planner: restarted, joiner, tools, store, runId: "lc-1", ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "a and b" });
    expect(restarted.asked).toBe(0);
    expect(calls).toEqual(["b lc-1/plan:1/2"]);
    expect(result.plan?.steps.map((step) => step.id)).toEqual([1, 2]);
    joiner.assertDone();
  });
});

describe("durable ReAct and runStrategy", () => {
  it("react keeps its loop as a run of its own: a restart does not ask for a decision it has, and a finished id runs nothing", async () => {
    const store = memoryStore();
    const decide = { type: "tool_calls" as const, calls: [{ id: "c1", name: "fetch", arguments: { source: "a" } }] };
    const dying = fetchTools(["a"]);
    const first = new ScriptedModel([decide]);
    const crashed = dyingStore(store);
    abandoned(react({ task: "fetch a", model: first, tools: dying.tools, store: crashed.store, lease: dyingLease, runId: "re-1" }));
    await settle();
    crashed.die();
    expect(dying.calls).toEqual(["a re-1/agent/call:0:0"]);
    const { calls, tools } = fetchTools();
    const second = new ScriptedModel([text("got a")]);
    const result = await react({ task: "fetch a", model: second, tools, store, runId: "re-1", ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "got a", runId: "re-1" });
    expect(calls).toEqual(["a re-1/agent/call:0:0"]);
    second.assertDone();
    expect((await react({ task: "fetch a", model: second, tools, store, runId: "re-1" })).output).toBe("got a");
  });

  it("runStrategy passes the store and id on to the strategy it runs", async () => {
    const store = memoryStore();
    const { tools } = fetchTools();
    const model = new ScriptedModel([
      { purpose: "plan", reply: text('#E1 = fetch[{"source": "a"}]') },
      { purpose: "solve", reply: text("a") },
    ]);
    const result = await runStrategy("rewoo", { task: "fetch a", model, tools, store, runId: "rs-1" });
    expect(result).toMatchObject({ status: "completed", runId: "rs-1" });
    expect(store.getRun("rs-1")).toMatchObject({ entry: "rewoo", status: "finished" });
    expect((await runStrategy("rewoo", { task: "fetch a", model, tools, store, runId: "rs-1" })).output).toBe("a");
    await expect(runStrategy("react", { task: "fetch a", model, tools, store, runId: "rs-1" })).rejects.toThrow(
      'run "rs-1" was started by rewoo, not react',
    );
  });
});
