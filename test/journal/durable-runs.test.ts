// Durable runs: every step checkpointed, a finished run never runs again, a run cut short
// continues by id and runs only what had not finished. (Killed processes: crash-resume.test.ts.)
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, runAgent, type JournalEntry } from "planloop";
import { abandoned, dyingLease, dyingStore, takeOver } from "../helpers/dying-store.js";

function counting() {
  const calls: string[] = [];
  const tool = defineTool({
    name: "t",
    description: "t",
    input: z.object({ v: z.string() }),
    execute: ({ v }, { idempotencyKey }) => (calls.push(`${v} ${idempotencyKey}`), v.toUpperCase()),
  });
  return { calls, tool };
}

const plan = {
  steps: [
    { id: "a", task: "a", tool: "t", args: { v: "a" } },
    { id: "b", task: "b", tool: "t", args: { v: "${a}" }, depends_on: ["a"] },
    { id: "c", task: "c", tool: "t", args: { v: "c" } },
  ],
};

describe("durable executePlan", () => {
  it("a finished run's id hands back its stored result and runs nothing", async () => {
    const store = memoryStore();
    const { calls, tool } = counting();
    const first = await executePlan({ plan, tools: [tool], store, runId: "r1" });
    expect(first).toMatchObject({ status: "completed", runId: "r1" });
    // (a and c are independent: c may run before or after b.)
    expect([...calls].sort()).toEqual(["A r1/b", "a r1/a", "c r1/c"]);
    const again = await executePlan({ plan, tools: [tool], store, runId: "r1" });
    expect(again).toEqual(JSON.parse(JSON.stringify(first)));
    expect(calls).toHaveLength(3);
    expect(store.getRun("r1")).toMatchObject({ status: "finished" });
  });

  it("continues from the journal: a step that ended is not run again, one that only started runs again with the same key", async () => {
    const store = memoryStore();
    store.createRun({ runId: "r2", entry: "executePlan", at: 0 });
    const journal: JournalEntry[] = [
      { kind: "plan", version: 1, plan },
      { kind: "step-start", stepKey: "a", attempt: 1, idempotencyKey: "r2/a" },
      { kind: "step-end", stepKey: "a", record: { status: "succeeded", output: "A", attempts: 1 } },
      { kind: "step-start", stepKey: "b", attempt: 1, idempotencyKey: "r2/b" },
    ];
    store.append("r2", journal, 1);
    const { calls, tool } = counting();
    const result = await executePlan({ plan, tools: [tool], store, runId: "r2" });
    expect(result).toMatchObject({ status: "completed", output: { b: "A", c: "C" } });
    expect(calls.sort()).toEqual(["A r2/b", "c r2/c"]);
  });

  it("options that are not an object, and a bad runId, are refused with a message that says so", async () => {
    await expect(executePlan(undefined as never)).rejects.toThrow("executePlan needs an options object");
    await expect(runAgent(null as never)).rejects.toThrow("runAgent needs an options object");
    await expect(executePlan({ plan, tools: [], runId: "" })).rejects.toThrow("runId must be a non-empty string");
  });

  it("every run has an id, generated when none is given", async () => {
    const { tool } = counting();
    const result = await executePlan({ plan, tools: [tool] });
    expect(result.runId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("durable runAgent", () => {
  const lookup = () => {
    const calls: string[] = [];
    const tool = defineTool({
      name: "lookup",
      description: "looks up",
      input: z.object({ q: z.string() }),
      execute: ({ q }, { idempotencyKey }) => (calls.push(`${q} ${idempotencyKey}`), `found ${q}`),
    });
    return { calls, tool };
  };

  it("a finished loop's id hands back its result without asking the model", async () => {
    const store = memoryStore();
    const { calls, tool } = lookup();
    let asked = 0;
    const model = async () =>
      ++asked === 1
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "lookup", arguments: { q: "A1" } }] }
        : { type: "final" as const, content: "done" };
    const first = await runAgent({ model, tools: [tool], task: "t", store, runId: "loop-1" });
    expect(first).toMatchObject({ status: "completed", output: "done", runId: "loop-1" });
    expect(calls).toEqual(["A1 loop-1/call:0:0"]);
    const again = await runAgent({ model, tools: [tool], task: "t", store, runId: "loop-1" });
    expect(again.output).toBe("done");
    expect(asked).toBe(2);
    expect(calls).toHaveLength(1);
  });

  it("a loop that died after a decision does not ask for it again; its calls that ended are not run again, one that did not runs with the same key", async () => {
    const store = memoryStore();
    const { calls, tool } = lookup();
    // First process: the model decides two calls; the process "dies" after the first one ends.
    let asked = 0;
    const deciding = async () => (
      asked++,
      {
        type: "tool_calls" as const,
        calls: [
          { id: "c1", name: "lookup", arguments: { q: "A" } },
          { id: "c2", name: "lookup", arguments: { q: "B" } },
        ],
      }
    );
    const dying = defineTool({
      name: "lookup",
      description: "looks up",
      input: z.object({ q: z.string() }),
      execute: async ({ q }, { idempotencyKey }) => {
        calls.push(`${q} ${idempotencyKey}`);
        if (q === "B") await new Promise(() => {}); // the process dies while B runs
        return `found ${q}`;
      },
    });
    const crashed = dyingStore(store);
    abandoned(
      runAgent({
        model: deciding,
        tools: [dying],
        task: "t",
        store: crashed.store,
        lease: dyingLease,
        runId: "loop-2",
        toolConcurrency: 1,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    crashed.die();
    expect(calls).toEqual(["A loop-2/call:0:0", "B loop-2/call:0:1"]);
    // Second process: the same id continues; the model is asked only for the next turn.
    let askedAfter = 0;
    const answering = async () => (askedAfter++, { type: "final" as const, content: "both found" });
    const result = await runAgent({ model: answering, tools: [tool], task: "t", store, runId: "loop-2", ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "both found" });
    expect(asked).toBe(1);
    expect(askedAfter).toBe(1);
    expect(calls).toEqual(["A loop-2/call:0:0", "B loop-2/call:0:1", "B loop-2/call:0:1"]);
    expect(result.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual(["found A", "found B"]);
  });
});

/** A payment tool that needs approval and never returns (the process dies in it) until `live()`. */
function dyingPay() {
  const paid: string[] = [];
  let dies = true;
  const pay = defineTool({
    name: "pay",
    description: "pays",
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: async ({ amount }, { idempotencyKey }) => {
      paid.push(`${amount} ${idempotencyKey}`);
      if (dies) await new Promise(() => {});
      return "paid";
    },
  });
  return { paid, pay, live: () => (dies = false) };
}

describe("durable runs and approvals", () => {
  it("an approved call cut short by a crash is not run again on the same approval: the continued run asks what became of it, under a new id", async () => {
    const store = memoryStore();
    const { paid, pay, live } = dyingPay();
    const payPlan = { steps: [{ id: 1, task: "pay", tool: "pay", args: { amount: 120 } }] };
    const waiting = await executePlan({ plan: payPlan, tools: [pay], store, runId: "pay-1" });
    expect(waiting).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ callId: "step:1" })] });
    const crashed = dyingStore(store);
    abandoned(
      executePlan({
        plan: payPlan,
        tools: [pay],
        store: crashed.store,
        lease: dyingLease,
        runId: "pay-1",
        approvals: { "step:1": { approved: true } },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    crashed.die();
    expect(paid).toEqual(["120 pay-1/1"]);

    live();
    const continued = await executePlan({ plan: payPlan, tools: [pay], store, runId: "pay-1", ...takeOver });
    // Asked what became of it, under a new id: the first approval cannot run it again.
    expect(continued).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ id: "step:1#2", callId: "step:1", kind: "interrupted", question: expect.any(String) })],
    });
    expect(paid).toHaveLength(1);
    const again = { plan: payPlan, tools: [pay], store, runId: "pay-1" };
    await expect(executePlan({ ...again, approvals: { "step:1": { approved: true } } })).rejects.toThrow(
      /matches no pending call.*step:1#2/,
    );
    expect(paid).toHaveLength(1);
    const approvedAgain = await executePlan({ ...again, approvals: { "step:1#2": { approved: true } } });
    expect(approvedAgain.status).toBe("completed");
    expect(paid).toEqual(["120 pay-1/1", "120 pay-1/1"]);
  });
});

describe("durable ReAct loops and approvals", () => {
  it("an approved call cut short by a crash is asked about under a new id, not run on the old approval", async () => {
    const store = memoryStore();
    const { paid, pay, live } = dyingPay();
    let asked = 0;
    const model = async () =>
      ++asked === 1
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "pay", arguments: { amount: 120 } }] }
        : { type: "final" as const, content: "paid 120" };
    const options = { model, tools: [pay], task: "pay 120", store, runId: "loop-pay" };
    const waiting = await runAgent(options);
    expect(waiting.status).toBe("waiting");
    const pendingId = waiting.pending![0]!.id;
    const crashed = dyingStore(store);
    abandoned(runAgent({ ...options, store: crashed.store, lease: dyingLease, approvals: { [pendingId]: { approved: true } } }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    crashed.die();
    expect(paid).toEqual(["120 loop-pay/call:0:0"]);

    live();
    const continued = await runAgent({ ...options, ...takeOver });
    expect(continued).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ id: `${pendingId}#2`, kind: "interrupted" })],
    });
    expect(paid).toHaveLength(1);
    await expect(runAgent({ ...options, approvals: { [pendingId]: { approved: true } } })).rejects.toThrow(/matches no pending call/);
    await expect(runAgent({ ...options, approvals: { c1: { approved: true } } })).rejects.toThrow(/matches no pending call/);
    expect(paid).toHaveLength(1);
    const done = await runAgent({ ...options, approvals: { [`${pendingId}#2`]: { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "paid 120" });
    // Run again because the person said so, under the same key.
    expect(paid).toEqual(["120 loop-pay/call:0:0", "120 loop-pay/call:0:0"]);
    expect(asked).toBe(2);
  });
});

describe("durable agent steps and approvals after a crash", () => {
  it("an approval sent again after a crash inside an agent step is refused, and the run goes on asking what its loop asks now", async () => {
    const store = memoryStore();
    const { paid, pay, live } = dyingPay();
    let turns = 0;
    const model = async () =>
      ++turns % 2 === 1
        ? { type: "tool_calls" as const, calls: [{ id: "c1", name: "pay", arguments: { amount: 7 } }] }
        : { type: "final" as const, content: "paid 7" };
    const agentPlan = { steps: [{ id: "g", task: "pay 7" }] };
    const options = { plan: agentPlan, tools: [pay], model, store, runId: "agent-pay" };
    const waiting = await executePlan(options);
    expect(waiting).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ id: "call:0:0@g" })] });
    const crashed = dyingStore(store);
    abandoned(executePlan({ ...options, store: crashed.store, lease: dyingLease, approvals: { "call:0:0@g": { approved: true } } }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    crashed.die();
    expect(paid).toEqual(["7 agent-pay/g/call:0:0"]);
    live();

    // The same approval again (a retried request): refused, the run unchanged, not failed.
    await expect(executePlan({ ...options, ...takeOver, approvals: { "call:0:0@g": { approved: true } } })).rejects.toThrow(
      /call:0:0@g.*matches no pending call/,
    );
    expect(paid).toHaveLength(1);
    const asked = await executePlan(options);
    expect(asked).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ kind: "interrupted" })] });
    const id = asked.pending![0]!.id;
    expect(id).toMatch(/^call:0:0#2@g$/);
    const done = await executePlan({ ...options, answers: { [id]: "paid before the crash" } });
    expect(done).toMatchObject({ status: "completed" });
    expect(paid).toHaveLength(1);
  });
});
