// The form an elicitation shows for a wave of pending items, and the decisions read from the answer.
import { describe, expect, it } from "vitest";
import { decisionForm, decisionsOf } from "../../src/server/mcp-elicit.js";
import type { PendingItem } from "../../src/client/api-types.js";

const wave: PendingItem[] = [
  { id: "step:1", kind: "approval", name: "pay", arguments: { amount: 7 } },
  { id: "step:2", kind: "interrupted", name: "wire", arguments: {} },
  { id: "call:0:1", kind: "input", name: "ask_user", question: "Which account?" },
];

describe("decision forms", () => {
  it("asks yes or no per approval and interrupted call, a text per question, every one required", () => {
    const form = decisionForm("r1", wave);
    expect(form.requestedSchema.properties).toMatchObject({
      "step:1": { type: "boolean", title: "Approve pay?", description: 'pay({"amount":7})' },
      "step:2": { type: "boolean" },
      "call:0:1": { type: "string", title: "Which account?", minLength: 1 },
      reason: { type: "string" },
    });
    expect(form.requestedSchema.required).toEqual(["step:1", "step:2", "call:0:1"]);
    expect(form.message).toBe("planloop run r1 waits for 3 decisions");
  });

  it("reads an accepted form as approvals, denials with the reason given, and answers", () => {
    const content = { "step:1": true, "step:2": false, "call:0:1": "savings", reason: "not twice" };
    expect(decisionsOf(wave, { action: "accept", content })).toEqual([
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:2", action: "deny", reason: "not twice" },
      { pendingId: "call:0:1", action: "answer", text: "savings" },
    ]);
  });

  it("denies every approval of a declined form and leaves questions open; a closed form decides nothing", () => {
    expect(decisionsOf(wave, { action: "decline" })).toEqual([
      { pendingId: "step:1", action: "deny", reason: "declined in the MCP client" },
      { pendingId: "step:2", action: "deny", reason: "declined in the MCP client" },
    ]);
    expect(decisionsOf(wave, { action: "cancel" })).toEqual([]);
  });
});
