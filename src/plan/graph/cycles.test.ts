import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCycles } from "./cycles.js";
import { buildPlanGraph } from "./plan-graph.js";
import { validatePlan } from "../validate-plan.js";

/** A plan of `count` steps with the given dependencies (self-dependencies left out). */
function planOf(count: number, edges: ReadonlyArray<readonly [number, number]>) {
  return {
    steps: Array.from({ length: count }, (_, id) => ({
      id,
      task: "t",
      depends_on: [...new Set(edges.filter(([step, need]) => step === id && need !== id).map(([, need]) => need))],
    })),
  };
}

/** Which steps reach which, along "is depended on by", by repeated relaxation. */
function reachability(count: number, edges: ReadonlyArray<readonly [number, number]>): boolean[][] {
  const reach = Array.from({ length: count }, () => new Array<boolean>(count).fill(false));
  for (const [step, need] of edges) if (step !== need) reach[need]![step] = true;
  for (let via = 0; via < count; via += 1) {
    for (let from = 0; from < count; from += 1) {
      if (!reach[from]![via]) continue;
      for (let to = 0; to < count; to += 1) if (reach[via]![to]) reach[from]![to] = true;
    }
  }
  return reach;
}

describe("findCycles", () => {
  it("finds one closed path for every knot of mutually dependent steps, and none in a DAG", () => {
    const graphs = fc
      .integer({ min: 1, max: 9 })
      .chain((count) =>
        fc.tuple(fc.constant(count), fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 })), { maxLength: 20 })),
      );
    fc.assert(
      fc.property(graphs, ([count, edges]) => {
        const graph = buildPlanGraph(planOf(count, edges));
        const reach = reachability(count, edges);
        const cycles = findCycles(graph);
        // Steps on a cycle are exactly those that reach themselves; each knot is named once.
        const onCycle = new Set(Array.from({ length: count }, (_, step) => step).filter((step) => reach[step]![step]));
        const knots = new Set(
          [...onCycle].map((step) =>
            [...onCycle]
              .filter((other) => reach[step]![other] && reach[other]![step])
              .sort()
              .join(","),
          ),
        );
        expect(cycles).toHaveLength(knots.size);
        for (const cycle of cycles) {
          expect(cycle[0]).toBe(cycle.at(-1));
          expect(new Set(cycle.slice(0, -1)).size).toBe(cycle.length - 1);
          for (let position = 1; position < cycle.length; position += 1) {
            expect(graph.dependents.list(cycle[position - 1]!)).toContain(cycle[position]);
          }
        }
      }),
    );
  });

  it("finds a cycle through 20,000 steps without running out of stack, and keeps the message short", () => {
    const count = 20_000;
    const steps = Array.from({ length: count }, (_, id) => ({ id, task: "t", depends_on: [id === 0 ? count - 1 : id - 1] }));
    const result = validatePlan({ steps });
    expect(result.ok).toBe(false);
    const message = result.ok ? "" : result.errors[0]!.message;
    expect(message).toBe(
      "steps form a cycle: 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> … 19,990 more steps … -> 19998 -> 19999 -> 0; remove one of these dependencies so the plan can start",
    );
  });
});
