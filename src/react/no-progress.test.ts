import { describe, expect, it } from "vitest";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { emptyNoProgress, recordRound } from "./no-progress.js";
import { defaultSecretKeys } from "../trust/secrets.js";

const settings = { maxRepeats: 3, secretKeys: defaultSecretKeys };
const ok = { content: "fine" };

describe("recordRound", () => {
  it("counts identical calls across rounds, whatever the key order", () => {
    const state = emptyNoProgress();
    expect(recordRound(state, [{ call: { id: 1, name: "q", arguments: { a: 1, b: 2 } }, outcome: ok }], settings)).toBeUndefined();
    expect(recordRound(state, [{ call: { id: 2, name: "q", arguments: { b: 2, a: 1 } }, outcome: ok }], settings)).toBeUndefined();
    expect(recordRound(state, [{ call: { id: 3, name: "q", arguments: { a: 1, b: 3 } }, outcome: ok }], settings)).toBeUndefined();
    expect(recordRound(state, [{ call: { id: 4, name: "q", arguments: { a: 1, b: 2 } }, outcome: ok }], settings)).toMatch(
      /"q" was called 3 times/,
    );
  });

  it("keeps no argument in its state and masks secret ones in its message", () => {
    const state = emptyNoProgress();
    const call = { id: 1, name: "charge", arguments: { card: "4242", apiKey: "sk-live-9" } };
    const stalls = [1, 2, 3].map(() => recordRound(state, [{ call, outcome: ok }], settings));
    expect(JSON.stringify(state)).not.toMatch(/4242|sk-live-9/);
    expect(stalls[2]).toContain('"apiKey":"[masked]"');
    expect(stalls[2]).not.toContain("sk-live-9");
  });

  it("treats missing arguments as an empty object", () => {
    const state = emptyNoProgress();
    const rounds = [undefined, {}, undefined].map((args, id) => [{ call: { id, name: "x", arguments: args }, outcome: ok }]);
    expect(rounds.map((round) => recordRound(state, round, settings))).toEqual([undefined, undefined, expect.any(String)]);
  });

  it("stops on the same error in a row; a success or a different error resets the streak", () => {
    const state = emptyNoProgress();
    const down = toolFailure("execution_failed", "db down");
    const other = toolFailure("execution_failed", "timeout");
    const outcomes = [down, down, ok, down, other, down, down, down];
    const stalls = outcomes.map((outcome, id) => recordRound(state, [{ call: { id, name: "t", arguments: { id } }, outcome }], settings));
    expect(stalls.slice(0, 7).every((stall) => stall === undefined)).toBe(true);
    expect(stalls[7]).toContain("the same error 3 times in a row: t: db down");
  });

  it("counts a decision's alike calls once, for repeats and for errors", () => {
    const state = emptyNoProgress();
    const down = toolFailure("execution_failed", "db down");
    const same = [1, 2, 3].map((id) => ({ call: { id, name: "q", arguments: { a: 1 } }, outcome: ok }));
    const failing = [1, 2, 3].map((id) => ({ call: { id, name: "t", arguments: { id } }, outcome: down }));
    expect(recordRound(state, same, settings)).toBeUndefined();
    expect(recordRound(state, failing, settings)).toBeUndefined();
    expect(state).toMatchObject({ errorStreak: 1, lastError: "t: db down" });
    expect(recordRound(state, same, settings)).toBeUndefined();
    expect(recordRound(state, same, settings)).toMatch(/"q" was called 3 times/);
  });

  it("continues an error streak across decisions that share the error; a success in a decision breaks it", () => {
    const state = emptyNoProgress();
    const down = toolFailure("execution_failed", "db down");
    const other = toolFailure("execution_failed", "timeout");
    const round = (id: number, ...outcomes: ToolOutcome[]) =>
      recordRound(
        state,
        outcomes.map((outcome, index) => ({ call: { id: `${id}.${index}`, name: "t", arguments: { id, index } }, outcome })),
        settings,
      );
    expect(round(1, other, down)).toBeUndefined();
    expect(round(2, down, ok)).toBeUndefined();
    expect(state.errorStreak).toBe(1);
    expect(round(3, down)).toBeUndefined();
    expect(round(4, other, down)).toMatch(/the same error 3 times in a row: t: db down/);
  });

  it("does not count cancelled calls as errors", () => {
    const state = emptyNoProgress();
    const cancelled = toolFailure("cancelled", "stopped");
    for (let id = 0; id < 5; id += 1) {
      expect(recordRound(state, [{ call: { id, name: "t", arguments: { id } }, outcome: cancelled }], settings)).toBeUndefined();
    }
  });
});
