// An approval releases only the call it names, once, and only as that call was shown.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executePlan, runAgent, type ModelFunction, type Tool } from "planloop";
import { FakeClock } from "planloop/testing";

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function refunds(options: { timeoutMs?: number; hang?: () => boolean; idempotent?: boolean } = {}) {
  const paid: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "refunds an order",
    input: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
    execute: async ({ order, amount }, { signal }) => {
      paid.push(`${order} ${amount}`);
      if (options.hang?.()) await new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
      return `refunded ${amount}`;
    },
  });
  return { paid, refund };
}

/** A model for an agent step that always names its call `call_0`, as servers that send no ids make it. */
const sameIdModel = (order: string): (() => ReturnType<ModelFunction>) => {
  let turn = 0;
  return async () =>
    ++turn === 1
      ? { type: "tool_calls" as const, calls: [{ id: "call_0", name: "refund", arguments: { order, amount: 10 } }] }
      : { type: "final" as const, content: `done ${order}` };
};

describe("approvals", () => {
  it("two agent steps whose calls share an id: approving one runs that one only; the shared id is refused", async () => {
    const { paid, refund } = refunds();
    const models = new Map([
      ["A", sameIdModel("A")],
      ["B", sameIdModel("B")],
    ]);
    const model: ModelFunction = (request) => {
      const task = String(request.messages.find((message) => message.role === "user")?.content ?? "");
      return models.get(task.includes("order A") ? "A" : "B")!();
    };
    const plan = {
      steps: [
        { id: "a", task: "refund order A" },
        { id: "b", task: "refund order B" },
      ],
    };
    const paused = await executePlan({ plan, tools: [refund], model });
    expect(paused.status).toBe("waiting");
    expect(paused.pending!.map((call) => call.id).sort()).toEqual(["call:0:0@a", "call:0:0@b"]);
    await expect(
      executePlan({ plan, tools: [refund], model, resume: roundTrip(paused.state!), approvals: { call_0: { approved: true } } }),
    ).rejects.toThrow(/"call_0" matches 2 pending calls; decide each by its id; the pending calls are: call:0:0@a, call:0:0@b/);
    const resumed = await executePlan({
      plan,
      tools: [refund],
      model,
      resume: roundTrip(paused.state!),
      approvals: { "call:0:0@a": { approved: true } },
    });
    expect(paused).toBeDefined();
    expect(paid).toEqual(["A 10"]);
    expect(resumed.status).toBe("waiting");
    expect(resumed.pending!.map((call) => call.id)).toEqual(["call:0:0@b"]);
  });

  it("an agent step's call named step:2 is not released by the approval of tool step 2", async () => {
    const { paid, refund } = refunds();
    let turn = 0;
    const model = async () =>
      ++turn === 1
        ? { type: "tool_calls" as const, calls: [{ id: "step:2", name: "refund", arguments: { order: "AGENT", amount: 999 } }] }
        : { type: "final" as const, content: "done" };
    const plan = {
      steps: [
        { id: 1, task: "agent refund" },
        { id: 2, task: "tool refund", tool: "refund", args: { order: "TOOL", amount: 5 } },
      ],
    };
    const paused = await executePlan({ plan, tools: [refund], model });
    expect(paused.pending!.map((call) => call.id).sort()).toEqual(["call:0:0@1", "step:2"]);
    const resumed = await executePlan({
      plan,
      tools: [refund],
      model,
      resume: roundTrip(paused.state!),
      approvals: { "step:2": { approved: true } },
    });
    expect(paid).toEqual(["TOOL 5"]);
    expect(resumed.pending!.map((call) => call.id)).toEqual(["call:0:0@1"]);
  });

  it('ReAct calls with ids 1 and "1" are told apart by position', async () => {
    const { paid, refund } = refunds();
    let turn = 0;
    const model = async () =>
      ++turn === 1
        ? {
            type: "tool_calls" as const,
            calls: [
              { id: 1, name: "refund", arguments: { order: "X", amount: 1 } },
              { id: "1", name: "refund", arguments: { order: "Y", amount: 2 } },
            ],
          }
        : { type: "final" as const, content: "done" };
    const paused = await runAgent({ model, tools: [refund] });
    expect(paused.pending!.map((call) => call.id)).toEqual(["call:0:0", "call:0:1"]);
    await expect(
      runAgent({ model, tools: [refund], resume: roundTrip(paused.state!), approvals: { "1": { approved: true } } }),
    ).rejects.toThrow(/matches 2 pending calls/);
    const resumed = await runAgent({
      model,
      tools: [refund],
      resume: roundTrip(paused.state!),
      approvals: { "call:0:0": { approved: true } },
    });
    expect(resumed.status).toBe("waiting");
    expect(paid).toEqual(["X 1"]);
  });

  it("an approval that matches nothing pending is an error naming the pending ids", async () => {
    const { refund } = refunds();
    const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A", amount: 10 } }] };
    const paused = await executePlan({ plan, tools: [refund] });
    await expect(
      executePlan({ plan, tools: [refund], resume: roundTrip(paused.state!), approvals: { "step:9": { approved: true } } }),
    ).rejects.toThrow('the decision for "step:9" matches no pending call; the pending calls are: step:1');
  });

  it("an approval is used once: resuming the next state with it again is refused", async () => {
    const { paid, refund } = refunds();
    const gate = defineTool({ name: "gate", description: "waits", input: z.object({}), needsApproval: true, execute: () => "open" });
    const plan = {
      steps: [
        { id: 1, task: "refund", tool: "refund", args: { order: "A", amount: 10 } },
        { id: 2, task: "gate", tool: "gate", args: {}, depends_on: [1] },
      ],
    };
    const tools: Tool[] = [refund, gate];
    const first = await executePlan({ plan, tools });
    const second = await executePlan({ plan, tools, resume: roundTrip(first.state!), approvals: { "step:1": { approved: true } } });
    expect(second.status).toBe("waiting");
    expect(second.state!.usedApprovals).toEqual(["step:1"]);
    await expect(
      executePlan({ plan, tools, resume: roundTrip(second.state!), approvals: { "step:1": { approved: true } } }),
    ).rejects.toThrow(/"step:1" was already used/);
    expect(paid).toEqual(["A 10"]);
  });

  it("an edited state does not run what it now holds: a changed amount, a plan with another step", async () => {
    const { paid, refund } = refunds();
    const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A", amount: 10 } }] };
    const paused = await executePlan({ plan, tools: [refund] });
    const edited = roundTrip(paused.state!);
    const waiting = edited.waiting["1"]!;
    if (waiting.kind === "tool") (waiting.pending.arguments as { amount: number }).amount = 999_999;
    await expect(executePlan({ plan, tools: [refund], resume: edited, approvals: { "step:1": { approved: true } } })).rejects.toThrow(
      /changed after it paused/,
    );
    const longer = { steps: [...plan.steps, { id: 2, task: "again", tool: "refund", args: { order: "B", amount: 5 } }] };
    await expect(
      executePlan({ plan: longer, tools: [refund], resume: roundTrip(paused.state!), approvals: { "step:1": { approved: true } } }),
    ).rejects.toThrow(/not the plan the saved state paused with/);
    expect(paid).toEqual([]);
  });

  it("with stateSecret, a state changed anywhere is refused, and the signed state resumes", async () => {
    const { paid, refund } = refunds();
    const stateSecret = "a secret of sixteen+ characters";
    const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A", amount: 10 } }] };
    const paused = await executePlan({ plan, tools: [refund], stateSecret });
    expect(typeof (paused.state as { signature?: unknown }).signature).toBe("string");
    const added = roundTrip(paused.state!);
    added.plan.steps.push({ id: 2, task: "more", tool: "refund", args: { order: "B", amount: 5 }, depends_on: [] });
    await expect(
      executePlan({ plan, tools: [refund], resume: added, stateSecret, approvals: { "step:1": { approved: true } } }),
    ).rejects.toThrow(/signature does not match/);
    const { signature: _, ...unsigned } = roundTrip(paused.state!) as typeof paused.state & { signature: string };
    await expect(executePlan({ plan, tools: [refund], resume: unsigned, stateSecret })).rejects.toThrow(/not signed/);
    const done = await executePlan({
      plan,
      tools: [refund],
      resume: roundTrip(paused.state!),
      stateSecret,
      approvals: { "step:1": { approved: true } },
    });
    expect(done.status).toBe("completed");
    expect(paid).toEqual(["A 10"]);
  });

  it("an approved call that times out is not run again without a new approval, unless its tool is idempotent", async () => {
    for (const idempotent of [false, true]) {
      const clock = new FakeClock();
      let calls = 0;
      const { paid, refund } = refunds({ timeoutMs: 100, hang: () => ++calls === 1, idempotent });
      const plan = { steps: [{ id: 1, task: "refund", tool: "refund", args: { order: "A", amount: 10 } }] };
      const paused = await executePlan({ plan, tools: [refund], clock });
      const resumed = await clock.run(
        executePlan({
          plan,
          tools: [refund],
          clock,
          resume: roundTrip(paused.state!),
          approvals: { "step:1": { approved: true } },
          retry: { initialDelayMs: 0 },
        }),
      );
      if (idempotent) {
        expect(resumed.status).toBe("completed");
        expect(paid).toEqual(["A 10", "A 10"]);
      } else {
        expect(resumed.status).toBe("waiting");
        expect(paid).toEqual(["A 10"]);
        expect(resumed.pending!.map((call) => call.id)).toEqual(["step:1#2"]);
        const again = await clock.run(
          executePlan({ plan, tools: [refund], clock, resume: roundTrip(resumed.state!), approvals: { "step:1#2": { approved: true } } }),
        );
        expect(again.status).toBe("completed");
        expect(paid).toEqual(["A 10", "A 10"]);
      }
    }
  });
});
