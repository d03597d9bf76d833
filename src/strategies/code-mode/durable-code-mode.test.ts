// Code mode kept in a store: continued by id (as `planloop runs approve` does), a waiting run
// runs its program again reading the calls that ended, and a run whose process died continues
// without asking for the program again or running a finished call twice.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryStore } from "../../journal/memory-store.js";
import { defineTool } from "../../core/tools/define-tool.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { abandoned, dyingLease, dyingStore, takeOver } from "../../../test/helpers/dying-store.js";
import { storedRunEvents } from "../../trace/stored-trace.js";
import { summarizeTrace } from "../../trace/trace-model.js";
import { codeMode } from "./code-mode.js";

const text = (content: string) => ({ type: "final" as const, content });
const never = () => new Promise<never>(() => {});
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** `fetch` (idempotent) and `pay` (side-effecting, approved by a person), logged with their keys; `hang` names calls that never end. */
function payTools(hang: string[] = []) {
  const calls: string[] = [];
  const fetch = defineTool({
    name: "fetch",
    description: "Fetch a bill",
    input: z.object({ bill: z.string() }),
    execute: async ({ bill }, { idempotencyKey }) => {
      calls.push(`fetch ${bill} ${idempotencyKey}`);
      if (hang.includes(bill)) await never();
      return { bill, amount: bill.length * 10 };
    },
  });
  const pay = defineTool({
    name: "pay",
    description: "Pay an amount",
    input: z.object({ amount: z.number() }),
    effect: "side-effecting",
    execute: async ({ amount }, { idempotencyKey }) => {
      calls.push(`pay ${amount} ${idempotencyKey}`);
      if (hang.includes("pay")) await never();
      return "paid";
    },
  });
  return { calls, tools: [fetch, pay] };
}

const source =
  "const a = await tools.fetch({ bill: 'gas' });\nconst b = await tools.fetch({ bill: 'water' });\nreturn await tools.pay({ amount: a.amount + b.amount });";
const program = text("```js\n" + source + "\n```");

describe("durable code mode", () => {
  it("continues a waiting run by id with the approval, runs no call twice, and hands back the finished result", async () => {
    const store = memoryStore();
    const approve = defineTool({
      name: "approve_pay",
      description: "Pay, with a person's approval",
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => (paid.push(amount), "paid"),
    });
    const paid: number[] = [];
    const { calls, tools } = payTools();
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: text("```js\nconst a = await tools.fetch({ bill: 'gas' });\nreturn await tools.approve_pay({ amount: a.amount });\n```"),
      },
      { purpose: "solve", reply: text("Paid 30.") },
    ]);
    const run = { task: "pay the gas bill", model, tools: [...tools, approve], store, runId: "code-1", grounding: false as const };
    const waiting = await codeMode(run);
    expect(waiting).toMatchObject({
      status: "waiting",
      pending: [expect.objectContaining({ name: "approve_pay", arguments: { amount: 30 } })],
    });
    expect(store.getRun("code-1")).toMatchObject({ entry: "codeMode", status: "running" });
    const id = waiting.pending![0]!.id;
    const done = await codeMode({ ...run, approvals: { [id]: { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "Paid 30." });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^fetch gas code-1\/code:0:[0-9a-f]{16}:1$/);
    expect(paid).toEqual([30]);
    model.assertDone();
    const again = await codeMode(run);
    expect(again).toEqual(JSON.parse(JSON.stringify(done)));
    expect(paid).toEqual([30]);
  });

  it("keeps a call's secret argument sealed in the store, and still continues by id", async () => {
    const store = memoryStore();
    const seen: string[] = [];
    const login = defineTool({
      name: "login",
      description: "Logs in",
      input: z.object({ user: z.string(), password: z.string() }),
      execute: ({ user, password }) => (seen.push(`${user}:${password}`), "session-1"),
    });
    const pay = defineTool({
      name: "pay",
      description: "Pays",
      input: z.object({ session: z.string() }),
      needsApproval: true,
      execute: () => "paid",
    });
    const model = new ScriptedModel([
      {
        purpose: "plan",
        reply: text(
          "```js\nconst session = await tools.login({ user: 'ann', password: 'hunter2' });\nreturn await tools.pay({ session });\n```",
        ),
      },
      { purpose: "solve", reply: text("Paid.") },
    ]);
    const run = {
      task: "log in and pay",
      model,
      tools: [login, pay],
      store,
      runId: "code-s",
      grounding: false as const,
      stateSecret: "a-test-secret-of-32-characters!!",
    };
    const waiting = await codeMode(run);
    expect(waiting.status).toBe("waiting");
    // The call's secret argument is sealed where the call is kept, and the program's text with the store's secret, as the model's text is.
    const stored = await store.getRun("code-s");
    const started = stored!.journal.find((entry) => entry.kind === "code-start");
    expect(JSON.stringify(started)).not.toContain("hunter2");
    const kept = (stored!.journal as Array<{ kind: string; name?: string; arguments?: unknown }>).filter(
      (entry) => entry.kind === "code-call" && entry.name === "login",
    );
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept[0]!.arguments)).not.toContain("hunter2");
    expect(JSON.stringify(kept[0]!.arguments)).toContain("ann");
    const done = await codeMode({ ...run, approvals: { [waiting.pending![0]!.id]: { approved: true } } });
    expect(done).toMatchObject({ status: "completed", output: "Paid." });
    expect(seen).toEqual(["ann:hunter2"]);
  });

  it("continues a run whose process died mid-program: the program is not asked for again, the call that ended does not run again", async () => {
    const store = memoryStore();
    const dying = payTools(["water"]);
    const model = new ScriptedModel([{ purpose: "plan", reply: program }]);
    const crashed = dyingStore(store);
    abandoned(
      codeMode({
        task: "pay both bills",
        model,
        tools: dying.tools,
        store: crashed.store,
        lease: dyingLease,
        runId: "code-2",
        grounding: false,
      }),
    );
    await settle();
    crashed.die();
    expect(dying.calls.map((call) => call.split(" ").slice(0, 2).join(" "))).toEqual(["fetch gas", "fetch water"]);
    model.assertDone();

    const { calls, tools } = payTools();
    const after = new ScriptedModel([{ purpose: "solve", reply: text("Paid 80 after a restart.") }]);
    const result = await codeMode({ task: "pay both bills", model: after, tools, store, runId: "code-2", grounding: false, ...takeOver });
    expect(result).toMatchObject({ status: "completed", output: "Paid 80 after a restart." });
    // The call cut short runs once more, under the same key; the one that ended is read.
    expect(calls).toEqual([dying.calls[1], expect.stringMatching(/^pay 80 code-2\/code:0:/)]);
    after.assertDone();
  });

  it("asks a person about a side-effecting call a crash cut short, instead of running it again", async () => {
    const store = memoryStore();
    const dying = payTools(["pay"]);
    const model = new ScriptedModel([{ purpose: "plan", reply: program }]);
    const crashed = dyingStore(store);
    abandoned(
      codeMode({
        task: "pay both bills",
        model,
        tools: dying.tools,
        store: crashed.store,
        lease: dyingLease,
        runId: "code-3",
        grounding: false,
      }),
    );
    await settle();
    crashed.die();
    expect(dying.calls.at(-1)).toMatch(/^pay 80 /);

    const { calls, tools } = payTools();
    const run = { task: "pay both bills", tools, store, runId: "code-3", grounding: false as const, ...takeOver };
    const asked = await codeMode({ ...run, model: new ScriptedModel([]) });
    expect(asked).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ name: "pay", kind: "interrupted" })] });
    expect(calls).toEqual([]);
    const answered = new ScriptedModel([{ purpose: "solve", reply: text("Paid 80 once.") }]);
    const done = await codeMode({ ...run, model: answered, answers: { [asked.pending![0]!.id]: "paid" } });
    expect(done).toMatchObject({ status: "completed", output: "Paid 80 once." });
    expect(calls).toEqual([]);
    // As the trace draws it: the payment cut short where the process stopped, then waiting for the person, then answered.
    const trace = summarizeTrace(storedRunEvents((await store.getRun("code-3"))!, []));
    const pay = trace.bars.filter((bar) => bar.tool === "pay");
    expect(pay.map((bar) => bar.status)).toEqual(["interrupted", "waiting", "succeeded"]);
    // One step, the call's place; the question about it was asked under the place's next id.
    expect(asked.pending![0]!.id).toMatch(/^code:0:[0-9a-f]{16}:1#2$/);
    expect(new Set(pay.map((bar) => bar.stepId))).toEqual(new Set([asked.pending![0]!.id.replace(/#2$/, "")]));
    expect(trace.pauses.map((paused) => paused.status)).toEqual(["process stopped", "waiting"]);
    expect(trace.versions).toHaveLength(1);
  });

  it("asks about an approved call a crash cut short under a new id: the approval given again does not run it twice", async () => {
    const store = memoryStore();
    const approvedPay = (hang: boolean) => {
      const calls: string[] = [];
      const { tools } = payTools();
      const pay = defineTool({
        name: "pay",
        description: "Pay an amount, once a person approves",
        input: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async ({ amount }) => {
          calls.push(`pay ${amount}`);
          if (hang) await never();
          return "paid";
        },
      });
      return { calls, tools: [tools[0]!, pay] };
    };
    const run = { task: "pay both bills", store, runId: "code-4", grounding: false as const };
    const first = approvedPay(false);
    const waiting = await codeMode({ ...run, tools: first.tools, model: new ScriptedModel([{ purpose: "plan", reply: program }]) });
    expect(waiting).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ name: "pay", kind: "approval" })] });
    const approvals = { [waiting.pending![0]!.id]: { approved: true } };
    // Approved, the payment starts, and the process dies inside it.
    const dying = approvedPay(true);
    const crashed = dyingStore(store);
    abandoned(codeMode({ ...run, store: crashed.store, lease: dyingLease, tools: dying.tools, model: new ScriptedModel([]), approvals }));
    await settle();
    crashed.die();
    expect(dying.calls).toEqual(["pay 80"]);
    // Continued with the same approval: asked whether it took effect, under a new id; not paid again.
    const after = approvedPay(false);
    const asked = await codeMode({ ...run, ...takeOver, tools: after.tools, model: new ScriptedModel([]), approvals });
    expect(asked).toMatchObject({ status: "waiting", pending: [expect.objectContaining({ name: "pay", kind: "interrupted" })] });
    expect(asked.pending![0]!.id).toBe(`${waiting.pending![0]!.id}#2`);
    expect(after.calls).toEqual([]);
  });
});
