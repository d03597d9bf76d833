import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPlanGraph } from "../plan/graph/plan-graph.js";
import { Readiness } from "./readiness.js";

/** A random DAG (each step depends on steps before it), which steps fail, and a random run order. */
const runArbitrary = fc.integer({ min: 1, max: 40 }).chain((size) =>
  fc.record({
    picks: fc.array(fc.array(fc.nat(), { maxLength: 4 }), { minLength: size, maxLength: size }),
    fails: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
    choices: fc.array(fc.nat(), { minLength: size, maxLength: size }),
  }),
);

describe("Readiness", () => {
  it("makes a step ready exactly once, only when every dependency succeeded, and never after a dependency failed", () => {
    fc.assert(
      fc.property(runArbitrary, ({ picks, fails, choices }) => {
        const steps = picks.map((pick, index) => ({
          id: index,
          task: `step ${index}`,
          depends_on: index === 0 ? [] : [...new Set(pick.map((p) => p % index))],
        }));
        const graph = buildPlanGraph({ steps });
        const readiness = new Readiness(graph);
        const ready: number[] = [];
        const madeReady = new Set<number>();
        const ok = new Map<number, boolean>();
        const take = (step: number) => {
          expect(madeReady.has(step)).toBe(false);
          for (const need of steps[step]!.depends_on) expect(ok.get(need)).toBe(true);
          madeReady.add(step);
          ready.push(step);
        };
        steps.forEach((_, index) => {
          if (readiness.add(index, "open")) take(index);
        });
        // Finish ready steps in a random order until none is left.
        for (let turn = 0; ready.length > 0; turn += 1) {
          const [step] = ready.splice(choices[turn % choices.length]! % ready.length, 1);
          ok.set(step!, !fails[step!]);
          readiness.complete(step!, !fails[step!], take);
        }
        // Exactly the steps whose every dependency, through the graph, succeeded became ready.
        const reachable = (index: number): boolean => steps[index]!.depends_on.every((need) => ok.get(need) === true);
        steps.forEach((_, index) => expect(madeReady.has(index)).toBe(reachable(index)));
      }),
    );
  });

  it("counts steps ended before the run: succeeded ones as met, settled ones as never succeeding", () => {
    const graph = buildPlanGraph({
      steps: [
        { id: "a", task: "a", depends_on: [] },
        { id: "b", task: "b", depends_on: [] },
        { id: "c", task: "c", depends_on: ["a"] },
        { id: "d", task: "d", depends_on: ["b"] },
      ],
    });
    const readiness = new Readiness(graph);
    expect(readiness.add(0, "succeeded")).toBe(false);
    expect(readiness.add(1, "settled")).toBe(false);
    expect(readiness.add(2, "open")).toBe(true);
    expect(readiness.add(3, "open")).toBe(false);
  });

  it("grows with a graph that is still being written", () => {
    const graph = buildPlanGraph({ steps: [] });
    const readiness = new Readiness(graph);
    for (let index = 0; index < 40; index += 1) {
      graph.keys.push(String(index));
      graph.dependencies.addStep();
      graph.dependents.addStep();
      if (index > 0) {
        graph.dependencies.add(index, index - 1);
        graph.dependents.add(index - 1, index);
      }
      expect(readiness.add(index, "open")).toBe(index === 0);
    }
    for (let index = 0; index < 39; index += 1) {
      const ready: number[] = [];
      readiness.complete(index, true, (step) => ready.push(step));
      expect(ready).toEqual([index + 1]);
    }
  });
});
