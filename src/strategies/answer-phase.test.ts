import { describe, expect, it } from "vitest";
import { readCriticText } from "./answer-phase.js";

describe("readCriticText fails closed", () => {
  it("approves only an unambiguous approval", () => {
    for (const text of [
      '{"approved": true}',
      'Sure: {"approved": true, "feedback": ""}',
      "APPROVE",
      "Approved.",
      "approve: all figures match",
    ]) {
      expect(readCriticText(text)).toEqual({ approved: true });
    }
  });

  it("rejects everything else, with the critic's words as feedback", () => {
    expect(readCriticText('{"approved": false, "feedback": "tickets missing"}')).toEqual({ approved: false, feedback: "tickets missing" });
    expect(readCriticText("REVISE: the totals are off")).toEqual({ approved: false, feedback: "the totals are off" });
    for (const text of [
      '{"approved": false, "feedback": "cut o',
      '{"approved": true, "feedb',
      "Not approved: the totals are off",
      "NO",
      "looks fine I guess",
    ]) {
      expect(readCriticText(text)).toEqual({ approved: false, feedback: text });
    }
  });

  it("cannot read an empty reply at all", () => {
    expect(readCriticText("  \n")).toEqual({ unreadable: "the critic's reply was empty" });
  });
});
