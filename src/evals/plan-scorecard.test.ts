import { describe, expect, it } from "vitest";
import type { PlanloopEvent } from "../core/events.js";
import { planScorecard } from "./plan-scorecard.js";

const gold = {
  steps: [
    { id: 1, task: "a", tool: "search", args: { q: "refunds" }, depends_on: [] },
    { id: 2, task: "b", tool: "search", args: { q: "tickets" }, depends_on: [] },
    { id: 3, task: "c", tool: "summarize", args: { text: "$1 and $2" }, depends_on: [1, 2] },
  ],
};

describe("planScorecard", () => {
  it("compares calls by tool and arguments, references by what they refer to; counts edges, the chain and steps serialized", () => {
    // The same calls under other ids, ReWOO's spelling of references, and the two searches one after the other.
    const emitted = {
      steps: [
        { id: "s", task: "a", tool: "search", args: { q: "refunds" }, depends_on: [] },
        { id: "t", task: "b", tool: "search", args: { q: "tickets" }, depends_on: ["s"] },
        { id: "u", task: "c", tool: "summarize", args: { text: "${s} and ${t}" }, depends_on: ["s", "t"] },
        { id: "v", task: "d", tool: "search", args: { q: "extra" }, depends_on: [] },
      ],
    };
    const card = planScorecard(gold, { plan: emitted });
    expect(card.calls).toEqual({ gold: 3, emitted: 4, found: 3, precision: 0.75, recall: 1 });
    expect(card.edges).toMatchObject({ gold: 2, emitted: 3, found: 2, recall: 1 });
    expect(card.edges.precision).toBeCloseTo(2 / 3, 10);
    expect(card.criticalPath).toEqual({ gold: 2, emitted: 3 });
    expect(card.serialized).toBe(1);
    // A reference to the wrong step's output is a different call.
    const wrong = { steps: [...emitted.steps.slice(0, 2), { ...emitted.steps[2]!, args: { text: "${s} and ${s}" } }] };
    expect(planScorecard(gold, { plan: wrong }).calls.found).toBe(2);
  });

  it("makespan over its bound, from the steps' own times", () => {
    const stepResults = {
      "1": { status: "succeeded" as const, attempts: 1, startedAt: 0, endedAt: 100 },
      "2": { status: "succeeded" as const, attempts: 1, startedAt: 100, endedAt: 150 },
      "3": { status: "succeeded" as const, attempts: 1, startedAt: 150, endedAt: 170 },
    };
    // The searches ran one after the other (170 ms in all), though the longest chain takes 100 + 20.
    expect(planScorecard(gold, { plan: gold, stepResults }).makespanOverBound).toBeCloseTo(170 / 120, 10);
    // Steps too quick to measure: the run took exactly its bound, not "unknown".
    const instant = Object.fromEntries(
      Object.keys(stepResults).map((id) => [id, { status: "succeeded" as const, attempts: 1, startedAt: 4, endedAt: 4 }]),
    );
    expect(planScorecard(gold, { plan: gold, stepResults: instant }).makespanOverBound).toBe(1);
    // A run that took time over steps that took none has no ratio.
    const waited = { ...instant, "3": { status: "succeeded" as const, attempts: 1, startedAt: 9, endedAt: 9 } };
    expect(planScorecard(gold, { plan: gold, stepResults: waited }).makespanOverBound).toBeUndefined();
  });

  it("a loop's run is read from its tool calls, each turn's side by side", () => {
    const call = (step: number, name: string, args: unknown) =>
      ({ type: "tool-call-start", step, callId: `${step}${name}`, name, arguments: args, seq: 0, time: 0 }) as PlanloopEvent;
    const trace = [
      call(0, "search", { q: "refunds" }),
      call(0, "search", { q: "tickets" }),
      call(1, "summarize", { text: "refunds and tickets" }),
    ];
    const card = planScorecard(gold, { trace });
    expect(card.calls).toMatchObject({ found: 2, emitted: 3 });
    expect(card.criticalPath).toEqual({ gold: 2, emitted: 2 });
    expect(card.edges).toMatchObject({ emitted: 0, recall: 0 });
  });
});
