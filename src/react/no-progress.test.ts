import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../core/canonical-json.js";
import { previewOf } from "../core/tools/tool-output.js";
import { toolFailure, type ToolOutcome } from "../core/tools/tool-runner.js";
import { maskSecrets, defaultSecretKeys } from "../trust/secrets.js";
import type { ToolCall } from "../core/messages.js";
import { callSignature } from "./call-counts.js";
import { continuedNoProgress, emptyNoProgress, keptNoProgress, recordRound, type NoProgressState } from "./no-progress.js";

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
    expect(JSON.stringify(keptNoProgress(state))).not.toMatch(/4242|sk-live-9/);
    expect(stalls[2]).toContain('"apiKey":"[masked]"');
    expect(stalls[2]).not.toContain("sk-live-9");
  });

  it("goes on counting, and the error streak, from the state it kept", () => {
    const state = emptyNoProgress();
    const down = toolFailure("execution_failed", "db down");
    expect(recordRound(state, [{ call: { id: 1, name: "q", arguments: { a: 1, b: 2 } }, outcome: down }], settings)).toBeUndefined();
    const kept = JSON.parse(JSON.stringify(keptNoProgress(state))) as ReturnType<typeof keptNoProgress>;
    expect(kept).toMatchObject({ errorStreak: 1, lastError: "q: db down" });
    const continued = continuedNoProgress(kept);
    expect(recordRound(continued, [{ call: { id: 2, name: "q", arguments: { b: 2, a: 1 } }, outcome: down }], settings)).toBeUndefined();
    expect(recordRound(continued, [{ call: { id: 3, name: "q", arguments: { a: 1, b: 2 } }, outcome: ok }], settings)).toMatch(
      /"q" was called 3 times/,
    );
    expect(continued.errorStreak).toBe(0);
    expect(Object.values(keptNoProgress(continued).calls)).toEqual([3]);
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

  it("decides as the plain rule does: each distinct call of a round counted by signature, the round's errors as a set", () => {
    const call = fc.record({
      id: fc.nat(),
      name: fc.constantFrom("q", "t"),
      arguments: fc.oneof(fc.constant(undefined), fc.record({ a: fc.constantFrom(1, 2) }, { requiredKeys: [] })),
    });
    const outcome = fc.oneof(
      fc.constant<ToolOutcome>(ok),
      fc.constantFrom("db down", "timeout").map((message) => toolFailure("execution_failed", message)),
      fc.constant(toolFailure("cancelled", "stopped")),
    );
    const rounds = fc.array(fc.array(fc.record({ call, outcome }), { minLength: 1, maxLength: 4 }), { maxLength: 12 });
    fc.assert(
      fc.property(rounds, fc.integer({ min: 1, max: 4 }), (sequence, maxRepeats) => {
        const rule = { maxRepeats, secretKeys: defaultSecretKeys };
        const live = emptyNoProgress();
        const plain: NoProgressState = { calls: {}, errorStreak: 0 };
        for (const round of sequence) {
          expect(recordRound(live, round, rule)).toBe(plainRecordRound(plain, round, maxRepeats));
          expect(keptNoProgress(live)).toEqual(plain);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

/** The rule as first written, with a Map and a Set per round over the signatures (the state's own keys). */
function plainRecordRound(state: NoProgressState, results: Array<{ call: ToolCall; outcome: ToolOutcome }>, maxRepeats: number) {
  const calls = new Map<string, ToolCall>();
  const errors = new Set<string>();
  let succeeded = false;
  for (const { call, outcome } of results) {
    const signature = callSignature(call.name, call.arguments);
    if (!calls.has(signature)) calls.set(signature, call);
    if (!outcome.error) succeeded = true;
    else if (outcome.error.kind !== "cancelled") errors.add(`${call.name}: ${outcome.error.message}`);
  }
  let stall: string | undefined;
  for (const [signature, call] of calls) {
    const count = (state.calls[signature] ?? 0) + 1;
    state.calls[signature] = count;
    const shown = canonicalJson(maskSecrets(call.arguments ?? {}, defaultSecretKeys));
    if (count >= maxRepeats) stall ??= `"${call.name}" was called ${count} times with the same arguments ${previewOf(shown, 200)}`;
  }
  const firstError = errors.values().next().value;
  if (firstError === undefined) {
    if (succeeded) {
      delete state.lastError;
      state.errorStreak = 0;
    }
    return stall;
  }
  const continues = !succeeded && state.lastError !== undefined && errors.has(state.lastError);
  state.errorStreak = continues ? state.errorStreak + 1 : 1;
  if (!continues) state.lastError = firstError;
  if (state.errorStreak >= maxRepeats) stall ??= `the same error ${state.errorStreak} times in a row: ${previewOf(state.lastError!, 300)}`;
  return stall;
}
