// A refused API body says what the field should hold and what the body had: a typo in a key is
// named, with the key it was probably meant to be, and the shapes the request takes.
import { describe, expect, it } from "vitest";
import { BodyError, decisionsBody, eventBody, forkBody, readBody, startRunBody } from "../../src/server/api-requests.js";

function refusal(schema: Parameters<typeof readBody>[0], body: unknown): { message: string; field: string } {
  try {
    readBody(schema, body, "body");
  } catch (error) {
    if (error instanceof BodyError) return { message: error.message, field: error.field };
    throw error;
  }
  throw new Error("the body was taken");
}

describe("readBody's refusals", () => {
  it("names a misspelled key, what was missing, the shapes a run takes, and what the body had", () => {
    expect(refusal(startRunBody, { plna: { steps: [] } })).toEqual({
      message:
        'body: "plan" or "task" is missing, and "plna" is not a field here (did you mean "plan"?); ' +
        "expected { plan, runId?, webhook? } or { task, strategy?, runId?, webhook?, grounding?, budget? }, got { plna }",
      field: "body.plan",
    });
    expect(refusal(startRunBody, { tsak: "Write the report" }).message).toContain('"tsak" is not a field here (did you mean "task"?)');
    expect(refusal(startRunBody, {}).message).toBe(
      'body: "plan" or "task" is missing; expected { plan, runId?, webhook? } or { task, strategy?, runId?, webhook?, grounding?, budget? }, got {}',
    );
    expect(refusal(startRunBody, { plan: { steps: [] }, runid: "r1" }).message).toBe(
      'body: "runid" is not a field here (did you mean "runId"?); expected { plan, runId?, webhook? }, got { plan, runid }',
    );
  });

  it("says which decision shape was meant, from the action the body names", () => {
    expect(refusal(decisionsBody, { pendingid: "step:1", action: "approve" }).message).toBe(
      'body: "pendingId" is missing, and "pendingid" is not a field here (did you mean "pendingId"?); ' +
        'expected { pendingId, action: "approve" }, got { pendingid, action }',
    );
    expect(refusal(decisionsBody, [{ pendingId: "step:1", action: "approve", reason: "ok" }]).message).toBe(
      'body[0]: "reason" is not a field here; expected { pendingId, action: "approve" }, got { pendingId, action, reason }',
    );
    expect(refusal(decisionsBody, { pendingId: "step:1", action: "aprove" }).message).toContain('got "aprove"');
  });

  it("does the same for a rerun and an event", () => {
    expect(refusal(forkBody, { stp: 2 }).message).toBe(
      'body: "step" is missing, and "stp" is not a field here (did you mean "step"?); expected { step, args?, plan?, runId? }, got { stp }',
    );
    expect(refusal(eventBody, { id: "e1", dta: {} }).message).toBe(
      'body: "dta" is not a field here (did you mean "data"?); expected { id?, runId?, data? }, got { id, dta }',
    );
  });
});
