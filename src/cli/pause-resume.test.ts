import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resumeFromFlags } from "./pause-resume.js";

describe("resumeFromFlags", () => {
  const state = join(mkdtempSync(join(tmpdir(), "planloop-resume-")), "state.json");
  writeFileSync(state, JSON.stringify({ kind: "planloop/plan-state" }));

  it("reads the state and turns --approve, --deny and --answer into decisions", () => {
    expect(resumeFromFlags({ resume: state, approve: ["step:1"], deny: ["step:2"], answer: ["c3=blue, or green=ish"] })).toEqual({
      resume: { kind: "planloop/plan-state" },
      approvals: { "step:1": { approved: true }, "step:2": { approved: false, reason: "denied on the command line" } },
      answers: { c3: "blue, or green=ish" },
    });
  });

  it("says what is wrong with decisions it cannot use", () => {
    expect(() => resumeFromFlags({ approve: ["step:1"] })).toThrow(/go with --resume/);
    expect(() => resumeFromFlags({ resume: state, answer: ["no equals sign"] })).toThrow(/--answer takes callId=text/);
    expect(() => resumeFromFlags({ resume: `${state}.missing` })).toThrow(/cannot read state/);
  });
});
