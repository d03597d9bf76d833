import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { admitsParsedCalls, guardTools } from "./tool-guard.js";
import type { AdmitContext } from "./tool-runner.js";

const context: AdmitContext = { step: 0, signal: new AbortController().signal, callsSoFar: 0, approved: false };

const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  input: z.object({ order_id: z.string(), amount: z.number().positive() }),
  execute: ({ order_id }) => `refunded ${order_id}`,
  maxCalls: 2,
  authorize: ({ amount }) => (amount > 100 ? { allowed: false, reason: "refunds over 100 need a manager" } : true),
  needsApproval: ({ amount }) => amount > 50,
});

describe("guardTools", () => {
  const guard = guardTools([refund]);

  it("lists the tools' specs", () => {
    expect(guard.specs.map((spec) => spec.name)).toEqual(["refund"]);
    expect(guard.specs[0]?.inputSchema).toMatchObject({ required: ["order_id", "amount"] });
  });

  it("rejects an unknown tool and names the ones that exist", async () => {
    const admission = await guard.admit({ id: 1, name: "refnd", arguments: {} }, context);
    expect(admission).toMatchObject({ kind: "reject", error: { kind: "unknown_tool" } });
    expect(admission.kind === "reject" && admission.error.message).toContain("available tools: refund");
  });

  it("names the missing and the wrong fields", async () => {
    const admission = await guard.admit({ id: 1, name: "refund", arguments: { amount: -3 } }, context);
    expect(admission.kind).toBe("reject");
    const message = admission.kind === "reject" ? admission.error.message : "";
    expect(message).toContain("order_id: missing (required)");
    expect(message).toMatch(/amount: .*>0/);
  });

  it("enforces the call limit", async () => {
    const admission = await guard.admit({ id: 1, name: "refund", arguments: { order_id: "A", amount: 5 } }, { ...context, callsSoFar: 2 });
    expect(admission).toMatchObject({ kind: "reject", error: { kind: "call_limit" } });
  });

  it("reports the authorization reason, and checks every call", async () => {
    const denied = await guard.admit({ id: 1, name: "refund", arguments: { order_id: "A", amount: 500 } }, context);
    expect(denied).toMatchObject({ kind: "reject", error: { kind: "unauthorized" } });
    expect(denied.kind === "reject" && denied.error.message).toContain("refunds over 100 need a manager");
    const allowed = await guard.admit({ id: 2, name: "refund", arguments: { order_id: "A", amount: 5 } }, context);
    expect(allowed.kind).toBe("run");
  });

  it("treats a throwing authorization check as a denial", async () => {
    const tool = defineTool({
      name: "t",
      description: "d",
      input: z.object({}),
      execute: () => 1,
      authorize: () => {
        throw new Error("policy service down");
      },
    });
    const admission = await guardTools([tool]).admit({ id: 1, name: "t", arguments: {} }, context);
    expect(admission).toMatchObject({ kind: "reject", error: { kind: "unauthorized" } });
  });

  it("asks for approval by the rule, unless already approved", async () => {
    const call = { id: 1, name: "refund", arguments: { order_id: "A", amount: 70 } };
    expect(await guard.admit(call, context)).toEqual({ kind: "pending", reason: "approval" });
    expect((await guard.admit(call, { ...context, approved: true })).kind).toBe("run");
  });

  it("clears for plan steps only tools whose parsed calls it would admit as they are", async () => {
    const input = z.object({ n: z.number() });
    const execute = ({ n }: { n: number }) => n;
    const rules = {
      plain: {},
      timed: { timeoutMs: 5 },
      limited: { maxCalls: 1 },
      authorized: { authorize: () => ({ allowed: false, reason: "no" }) },
      approved: { needsApproval: true },
      asked: { needsApproval: () => false },
    };
    const cleared: string[] = [];
    for (const [name, rule] of Object.entries(rules)) {
      const tool = defineTool({ name, description: name, input, execute, ...rule });
      const admission = await guardTools([tool]).admit(
        { id: 1, name, arguments: { n: 1 } },
        { ...context, callsSoFar: 1, argsParsed: true, parsedArgs: { n: 2 } },
      );
      if (!admitsParsedCalls(tool)) continue;
      cleared.push(name);
      expect(admission).toEqual({ kind: "run", tool, args: { n: 2 }, timeoutMs: tool.timeoutMs });
    }
    const question = defineTool({ name: "ask", description: "asks", input: z.object({ question: z.string() }), needsInput: true });
    expect(admitsParsedCalls(question)).toBe(false);
    expect(cleared).toEqual(["plain", "timed"]);
  });
});
