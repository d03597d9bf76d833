import { describe, expect, it } from "vitest";
import { decideRun, type RunDecision, type WaitingRun } from "./decide-run.js";
import { DecisionsRefusedError } from "./decisions-refused.js";

const run = {
  runId: "r1",
  pending: [
    { id: "step:1", kind: "approval" },
    { id: "step:2", kind: "approval" },
    { id: "step:3", kind: "input" },
    { id: "step:4#2", kind: "interrupted" },
  ],
};

function refusal(decisions: RunDecision | RunDecision[], given: WaitingRun = run, at = 5): DecisionsRefusedError {
  try {
    decideRun({ run: given, decisions, by: "ana", at });
  } catch (error) {
    if (error instanceof DecisionsRefusedError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("decideRun", () => {
  it("takes a valid wave whole, in the engine's shape, with who and when", () => {
    const decided = decideRun({
      run,
      decisions: [
        { pendingId: "step:1", action: "approve" },
        { pendingId: "step:2", action: "deny", reason: "too much" },
        { pendingId: "step:3", action: "answer", text: "EUR" },
        { pendingId: "step:4#2", action: "answer", text: "sent by hand" },
      ],
      by: "ana",
      at: 1_000,
    });
    expect({ ...decided, approvals: { ...decided.approvals }, answers: { ...decided.answers } }).toEqual({
      ids: ["step:1", "step:2", "step:3", "step:4#2"],
      approvals: { "step:1": { approved: true }, "step:2": { approved: false, reason: "too much" } },
      answers: { "step:3": "EUR", "step:4#2": "sent by hand" },
      decidedBy: "ana",
      decidedAt: 1_000,
    });
  });

  it("checks each item's action against its kind: an answer for an approval, an approve for a question", () => {
    const refused = refusal([
      { pendingId: "step:1", action: "answer", text: "yes" },
      { pendingId: "step:2", action: "approve" },
      { pendingId: "step:3", action: "approve" },
    ]);
    expect(refused.problems.map(({ pendingId, problem }) => [pendingId, problem])).toEqual([
      ["step:1", "wrong-action"],
      ["step:3", "wrong-action"],
    ]);
    expect(refused.message).toBe(
      'nothing was decided on run "r1": step:1 waits for approval (approve or deny); "answer" does not fit it; ' +
        'step:3 waits for an answer; "approve" does not fit it',
    );
    expect(refused.httpStatus).toBe(422);
  });

  it("an interrupted call takes approve, deny or answer; never an edit", () => {
    for (const action of ["approve", "deny"] as const)
      expect(decideRun({ run, decisions: { pendingId: "step:4#2", action }, by: "a" }).ids).toEqual(["step:4#2"]);
    expect(refusal({ pendingId: "step:4#2", action: "edit", plan: { steps: [] } }).problems[0]?.problem).toBe("wrong-action");
  });

  it("a plan under review is approved, denied or edited (the edit checked); never answered", () => {
    const review = { runId: "p1", pending: [{ id: "plan:1", kind: "plan" }] };
    const plan = { steps: [{ id: "a", task: "refund A7" }] };
    const edited = decideRun({ run: review, decisions: { pendingId: "plan:1", action: "edit", plan }, by: "ana" });
    expect(edited.approvals["plan:1"]).toMatchObject({ approved: true, plan: { steps: [{ id: "a", task: "refund A7" }] } });
    expect(refusal({ pendingId: "plan:1", action: "answer", text: "ok" }, review).problems[0]?.problem).toBe("wrong-action");
    const cycle = {
      steps: [
        { id: "a", task: "x", depends_on: ["b"] },
        { id: "b", task: "y", depends_on: ["a"] },
      ],
    };
    const bad = refusal({ pendingId: "plan:1", action: "edit", plan: cycle }, review);
    expect(bad.problems[0]).toMatchObject({ problem: "invalid-plan", errors: [expect.stringMatching(/cycle/i)] });
    expect(bad.httpStatus).toBe(422);
  });

  it("refuses ids not pending (409), named twice or answers without text (400), listing each", () => {
    const stale = refusal([
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:9", action: "approve" },
    ]);
    expect([stale.ids, stale.httpStatus]).toEqual([["step:9"], 409]);
    expect(stale.message).toContain('the run does not wait for "step:9" (it was decided, or the run went on)');
    const twice = refusal([
      { pendingId: "step:1", action: "approve" },
      { pendingId: "step:1", action: "deny" },
    ]);
    expect([twice.ids, twice.httpStatus]).toEqual([["step:1"], 400]);
    expect(refusal({ pendingId: "step:3", action: "answer", text: "" }).problems[0]?.problem).toBe("no-answer");
    const finished = refusal({ pendingId: "step:1", action: "approve" }, { runId: "r1", pending: [], finished: "completed" });
    expect(finished.message).toContain("the run has finished (completed); it waits for nothing");
  });

  it("keys from outside are data: __proto__ is an id like any other", () => {
    const odd = { runId: "r", pending: [{ id: "__proto__", kind: "approval" }] };
    const decided = decideRun({ run: odd, decisions: { pendingId: "__proto__", action: "approve" }, by: "a" });
    expect(Object.keys(decided.approvals)).toEqual(["__proto__"]);
    expect(refusal({ pendingId: "toString", action: "approve" }, odd).problems[0]?.problem).toBe("not-pending");
  });

  it("an empty wave is misuse", () => {
    expect(() => decideRun({ run, decisions: [], by: "a" })).toThrow(/at least one item/);
  });

  it("refuses (409) approving a request that lapsed; a denial of it is taken (outside review)", () => {
    const lapsing = { runId: "r", pending: [{ id: "step:1", kind: "approval", expiresAt: 1_000 }] };
    const late = refusal({ pendingId: "step:1", action: "approve" }, lapsing, 1_000);
    expect([late.problems[0]?.problem, late.httpStatus]).toEqual(["lapsed", 409]);
    expect(late.message).toContain("lapsed at 1970-01-01T00:00:01.000Z; it can no longer be approved");
    expect(decideRun({ run: lapsing, decisions: { pendingId: "step:1", action: "approve" }, by: "a", at: 999 }).ids).toEqual(["step:1"]);
    expect(decideRun({ run: lapsing, decisions: { pendingId: "step:1", action: "deny" }, by: "a", at: 5_000 }).ids).toEqual(["step:1"]);
  });
});
