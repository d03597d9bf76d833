import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FakeClock } from "../../testing/fake-clock.js";
import { Budget } from "../budget.js";
import type { ToolCall } from "../messages.js";
import { defineTool, type Tool, type ToolContext } from "./define-tool.js";
import { plainCall } from "../../../test/helpers/plain-call.js";
import { runAdmittedCall, type CallScope } from "./guarded-call.js";
import { guardTools } from "./tool-guard.js";
import type { Admission, AdmitContext } from "./tool-runner.js";

const call = { id: "c1", name: "slow" };

/** An admitted call of a tool that runs `execute`. */
function admitted(execute: (context: ToolContext) => unknown, timeoutMs?: number): Extract<Admission, { kind: "run" }> {
  return { kind: "run", tool: { execute: (_args: unknown, context: ToolContext) => execute(context) }, args: {}, timeoutMs };
}

function options(clock: FakeClock, signal = new AbortController().signal) {
  return { signal, step: 0, clock, maxOutputChars: 50 };
}

describe("runAdmittedCall (the plain call's second half)", () => {
  it("returns the output, cut to the limit with a marker", async () => {
    const clock = new FakeClock();
    const short = await runAdmittedCall(
      call,
      admitted(() => ({ rows: 3 })),
      options(clock),
    );
    expect(short).toEqual({ content: { rows: 3 } });
    const long = await runAdmittedCall(
      call,
      admitted(() => "x".repeat(120)),
      options(clock),
    );
    expect(long.content).toBe(`${"x".repeat(50)}\n[truncated: showing 50 of 120 characters]`);
  });

  it("turns a throw into an outcome the model reads", async () => {
    const clock = new FakeClock();
    const outcome = await runAdmittedCall(
      call,
      admitted(() => {
        throw new Error("disk full");
      }),
      options(clock),
    );
    expect(outcome.error).toEqual({ kind: "execution_failed", message: '"slow" failed: disk full' });
    expect(outcome.content).toBe('Error: "slow" failed: disk full');
  });

  it("aborts a call that passes its timeout and tells the tool", async () => {
    const clock = new FakeClock();
    let toolSignal: AbortSignal | undefined;
    const pending = runAdmittedCall(
      call,
      admitted(({ signal }) => {
        toolSignal = signal;
        return clock.sleep(5000);
      }, 1000),
      options(clock),
    );
    await clock.advance(1000);
    expect((await pending).error?.kind).toBe("timeout");
    expect(toolSignal?.aborted).toBe(true);
  });

  it("returns at once on abort even when the tool ignores its signal", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = runAdmittedCall(
      call,
      admitted(() => new Promise(() => {})),
      options(clock, controller.signal),
    );
    controller.abort();
    expect((await pending).error?.kind).toBe("cancelled");
  });
});

describe("admitCall, then runAdmittedCall", () => {
  function scope(tools: Tool[], limits: { maxToolCalls?: number } = {}) {
    const clock = new FakeClock();
    const guard = guardTools(tools);
    const admitted: string[] = [];
    const spied = { specs: guard.specs, admit: (c: ToolCall, context: AdmitContext) => (admitted.push(c.name), guard.admit(c, context)) };
    const callScope: CallScope = {
      guard: spied,
      budget: new Budget(limits, { clock }),
      callCounts: {},
      humans: { approvals: { "step:9": { approved: false, reason: "not today" } }, answers: {}, used: [] },
      execution: { signal: new AbortController().signal, step: 0, clock, maxOutputChars: Infinity },
    };
    return { callScope, admitted };
  }
  const ran: string[] = [];
  const plain = defineTool({
    name: "plain",
    description: "no rules",
    input: z.object({ n: z.number() }),
    execute: ({ n }) => (ran.push("plain"), n * 2),
  });
  const limited = defineTool({
    name: "limited",
    description: "one call",
    input: z.object({ n: z.number() }),
    maxCalls: 1,
    execute: ({ n }) => n,
  });

  it("runs a parsed call of a tool with no rules without asking the guard, and asks it for a tool with rules", async () => {
    const { callScope, admitted } = scope([plain, limited]);
    const first = await plainCall({
      scope: callScope,
      call: { id: "a", name: "plain", arguments: { n: 2 } },
      step: 0,
      parsedTool: plain,
      parsedArgs: { n: 2 },
    });
    expect(first).toEqual({ kind: "ran", content: 4 });
    expect(admitted).toEqual([]);
    const second = await plainCall({
      scope: callScope,
      call: { id: "b", name: "limited", arguments: { n: 1 } },
      step: 0,
      parsedTool: limited,
      parsedArgs: { n: 1 },
    });
    expect(second).toEqual({ kind: "ran", content: 1 });
    const third = await plainCall({
      scope: callScope,
      call: { id: "c", name: "limited", arguments: { n: 1 } },
      step: 0,
      parsedTool: limited,
      parsedArgs: { n: 1 },
    });
    expect(third).toMatchObject({ kind: "refused", outcome: { error: { kind: "call_limit" } } });
    expect(admitted).toEqual(["limited", "limited"]);
    expect(callScope.callCounts).toEqual({ plain: 1, limited: 1 });
  });

  it("refuses a denied call and a call past the tool-call budget without running or counting them", async () => {
    ran.length = 0;
    const { callScope } = scope([plain], { maxToolCalls: 1 });
    const denied = await plainCall({
      scope: callScope,
      call: { id: "step:9", name: "plain", arguments: { n: 1 } },
      step: 0,
      waiting: { kind: "approval", key: "step:9" },
    });
    expect(denied).toMatchObject({
      kind: "refused",
      outcome: { error: { kind: "denied", message: 'the call to "plain" was denied: not today' } },
    });
    expect(await plainCall({ scope: callScope, call: { id: "a", name: "plain", arguments: { n: 1 } }, step: 0 })).toMatchObject({
      kind: "ran",
    });
    const over = await plainCall({ scope: callScope, call: { id: "b", name: "plain", arguments: { n: 1 } }, step: 0 });
    expect(over).toMatchObject({ kind: "refused", outcome: { error: { kind: "budget_exhausted" } } });
    expect(ran).toEqual(["plain"]);
    expect(callScope.callCounts).toEqual({ plain: 1 });
  });
});
