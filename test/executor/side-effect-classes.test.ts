// A tool says what running its call again means (issue 27 §6): after a crash, a pure or
// idempotent call that had started runs again under the same key, as always; a side-effecting
// one is not run again unasked: the run waits with "was running when the process stopped —
// did it take effect?", which a person answers by running it again, marking it done with an
// output, or failing it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, effectOf, executePlan, memoryStore, runAgent, type CheckpointStore, type ModelRequest } from "planloop";
import { abandoned, dyingLease, dyingStore, takeOver } from "../helpers/dying-store.js";

const never = () => new Promise<never>(() => {});

/** A lookup (idempotent by default) and a payment (side-effecting), logging each call with its key; both hang in the first process. */
function crashingTools() {
  const calls: string[] = [];
  let crash: (() => void) | undefined;
  const lookup = defineTool({
    name: "lookup",
    description: "Looks an order up",
    input: z.object({ order: z.string() }),
    execute: async ({ order }, { idempotencyKey }) => {
      calls.push(`lookup ${idempotencyKey}`);
      if (crash !== undefined) await never();
      return `order ${order}`;
    },
  });
  const pay = defineTool({
    name: "pay",
    description: "Pays an invoice",
    input: z.object({ invoice: z.string() }),
    effect: "side-effecting",
    execute: async ({ invoice }, { idempotencyKey }) => {
      calls.push(`pay ${idempotencyKey}`);
      if (crash !== undefined) {
        const dying = crash;
        crash = undefined;
        dying();
        await never();
      }
      return `paid ${invoice}`;
    },
  });
  return { calls, tools: [lookup, pay], crashIn: (die: () => void) => (crash = die) };
}

const plan = {
  steps: [
    { id: "a", task: "look up", tool: "lookup", args: { order: "A7" } },
    { id: "b", task: "pay", tool: "pay", args: { invoice: "INV-9" } },
  ],
};

/** Runs the plan in a "process" that dies while both calls run, then continues it by id as the next one would. */
async function crashedRun(store: CheckpointStore, runId: string) {
  const made = crashingTools();
  const crashed = dyingStore(store);
  made.crashIn(crashed.die);
  abandoned(executePlan({ plan, tools: made.tools, store: crashed.store, runId, lease: dyingLease }));
  // Both calls start side by side, in an order the store's latency book may change: wait for both, whatever the load.
  for (let turn = 0; made.calls.length < 2 && turn < 2_000; turn += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect([...made.calls].sort()).toEqual([`lookup ${runId}/a`, `pay ${runId}/b`]);
  const continued = await executePlan({ plan, tools: made.tools, store, runId, ...takeOver });
  return { ...made, continued };
}

describe("side-effect classes after a crash", () => {
  it("an idempotent call runs again under its key; a side-effecting one waits for a person to say what became of it", async () => {
    const store = memoryStore();
    const { calls, tools, continued } = await crashedRun(store, "r1");
    expect(calls).toEqual(["lookup r1/a", "pay r1/b", "lookup r1/a"]);
    expect(continued).toMatchObject({ status: "waiting", steps: { a: { status: "succeeded" }, b: { status: "waiting" } } });
    expect(continued.pending).toEqual([
      expect.objectContaining({ id: "step:b", kind: "interrupted", name: "pay", arguments: { invoice: "INV-9" } }),
    ]);
    expect(continued.pending![0]!.question).toMatch(/"pay" was running when the process stopped — did it take effect\?/);
    // Asked again without an answer, it still waits: nothing runs.
    expect(await executePlan({ plan, tools, store, runId: "r1" })).toMatchObject({ status: "waiting" });
    // "Run it again": the payment runs once more, under the same key.
    const done = await executePlan({ plan, tools, store, runId: "r1", approvals: { "step:b": { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: { a: "order A7", b: "paid INV-9" } });
    expect(calls).toEqual(["lookup r1/a", "pay r1/b", "lookup r1/a", "pay r1/b"]);
  });

  it("marked done with an output, the call does not run again; failed, the step fails with the reason", async () => {
    const store = memoryStore();
    const marked = await crashedRun(store, "done");
    const answered = await executePlan({ plan, tools: marked.tools, store, runId: "done", answers: { "step:b": "paid by hand" } });
    expect(answered).toMatchObject({ status: "completed", steps: { b: { status: "succeeded", output: "paid by hand" } } });
    expect(marked.calls.filter((call) => call.startsWith("pay"))).toEqual(["pay done/b"]);

    const failed = await crashedRun(store, "failed");
    const denied = await executePlan({
      plan,
      tools: failed.tools,
      store,
      runId: "failed",
      approvals: { "step:b": { approved: false, reason: "the bank says it went through twice" } },
    });
    expect(denied.steps.b).toMatchObject({ status: "failed", error: expect.stringMatching(/cut short .*marked failed: the bank says/) });
    expect(failed.calls.filter((call) => call.startsWith("pay"))).toEqual(["pay failed/b"]);
  });

  it("holds for the ReAct loop: a side-effecting call cut short waits; answered, the model reads the answer as its result", async () => {
    const store = memoryStore();
    const made = crashingTools();
    const crashed = dyingStore(store);
    made.crashIn(crashed.die);
    const decide = () => ({
      type: "tool_calls" as const,
      calls: [
        { id: "c1", name: "lookup", arguments: { order: "A7" } },
        { id: "c2", name: "pay", arguments: { invoice: "INV-9" } },
      ],
    });
    abandoned(
      runAgent({ model: async () => decide(), tools: made.tools, task: "pay", store: crashed.store, runId: "loop", lease: dyingLease }),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(made.calls).toEqual(["lookup loop/call:0:0", "pay loop/call:0:1"]);
    const seen: string[] = [];
    const model = async (request: ModelRequest) => {
      seen.push(...request.messages.filter((message) => message.role === "tool").map((message) => String(message.content)));
      return { type: "final" as const, content: "paid" };
    };
    const waiting = await runAgent({ model, tools: made.tools, task: "pay", store, runId: "loop", ...takeOver });
    expect(waiting.status).toBe("waiting");
    expect(waiting.pending).toEqual([expect.objectContaining({ id: "call:0:1", kind: "interrupted", name: "pay" })]);
    expect(made.calls).toEqual(["lookup loop/call:0:0", "pay loop/call:0:1", "lookup loop/call:0:0"]);
    const done = await runAgent({ model, tools: made.tools, task: "pay", store, runId: "loop", answers: { "call:0:1": "paid by hand" } });
    expect(done).toMatchObject({ status: "completed", output: "paid" });
    expect(seen).toEqual(["order A7", "paid by hand"]);
    expect(made.calls.filter((call) => call.startsWith("pay"))).toEqual(["pay loop/call:0:1"]);
  });

  it("defaults: a tool that needs approval is side-effecting, any other idempotent; a tool says otherwise with effect", () => {
    const base = { description: "d", input: z.object({}), execute: () => 1 };
    expect(effectOf(defineTool({ name: "read", ...base }))).toBe("idempotent");
    expect(effectOf(defineTool({ name: "refund", ...base, needsApproval: true }))).toBe("side-effecting");
    expect(effectOf(defineTool({ name: "refund2", ...base, needsApproval: () => false }))).toBe("side-effecting");
    expect(effectOf(defineTool({ name: "upsert", ...base, needsApproval: true, idempotent: true }))).toBe("idempotent");
    expect(effectOf(defineTool({ name: "clock", ...base, effect: "pure" }))).toBe("pure");
    expect(() => defineTool({ name: "bad", ...base, effect: "sometimes" as never })).toThrow(
      /effect must be "pure", "idempotent" or "side-effecting"/,
    );
    expect(() => defineTool({ name: "both", ...base, effect: "side-effecting", idempotent: true })).toThrow(/not both/);
  });
});

describe("retries of a failed call", () => {
  /** A tool that fails its first `failures` calls with `error`, logging each call. */
  const flaky = (effect: "side-effecting" | "idempotent", failures: number, error: () => Error, timeoutMs?: number) => {
    const calls: number[] = [];
    const tool = defineTool({
      name: "wire",
      description: "Sends money",
      input: z.object({ amount: z.number() }),
      effect,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      execute: async ({ amount }) => {
        calls.push(amount);
        if (calls.length <= failures) {
          if (timeoutMs !== undefined) await never();
          throw error();
        }
        return `sent ${amount}`;
      },
    });
    return { tool, calls };
  };
  const plan = { steps: [{ id: 1, task: "send", tool: "wire", args: { amount: 5 } }] };
  const retry = { maxAttempts: 3, initialDelayMs: 0 };

  it("do not run a side-effecting call again after it threw or timed out: the step fails saying to check it", async () => {
    const thrown = flaky("side-effecting", 1, () => new Error("connection reset"));
    const result = await executePlan({ plan, tools: [thrown.tool], retry });
    expect(result.steps["1"]).toMatchObject({ status: "failed", attempts: 1 });
    expect(result.steps["1"]!.error).toMatch(/connection reset; "wire" is side-effecting, so it was not run again .*check it/);
    expect(thrown.calls).toEqual([5]);
    const slow = flaky("side-effecting", 1, () => new Error("never"), 5);
    expect((await executePlan({ plan, tools: [slow.tool], retry })).steps["1"]).toMatchObject({ status: "failed", attempts: 1 });
    expect(slow.calls).toEqual([5]);
  });

  it("run it again when the tool says the failure is safe to retry (retryable: true); an idempotent call is retried as before", async () => {
    const safe = flaky("side-effecting", 1, () => Object.assign(new Error("rate limited before sending"), { retryable: true }));
    expect((await executePlan({ plan, tools: [safe.tool], retry })).steps["1"]).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(safe.calls).toEqual([5, 5]);
    const idempotent = flaky("idempotent", 2, () => new Error("connection reset"));
    expect((await executePlan({ plan, tools: [idempotent.tool], retry })).steps["1"]).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(idempotent.calls).toEqual([5, 5, 5]);
  });
});
