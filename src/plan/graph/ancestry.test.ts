import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dependsOnEach } from "./ancestry.js";
import { buildPlanGraph, topologicalOrder } from "./plan-graph.js";

/**
 * A random DAG of up to 80 steps listed in a shuffled order: step `rank[i]` may depend only on
 * steps of lower rank. Enough steps and questions that groups of 32 fill and split.
 */
const dags = fc.integer({ min: 1, max: 80 }).chain((count) =>
  fc.record({
    rank: fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count }),
    edges: fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 })), { maxLength: 160, size: "max" }),
    questions: fc.array(fc.record({ step: fc.nat({ max: count - 1 }), on: fc.nat({ max: count - 1 }) }), { maxLength: 120, size: "max" }),
  }),
);

describe("dependsOnEach", () => {
  it("answers like a walk per question, in any order of dependencies", () => {
    fc.assert(
      fc.property(dags, ({ rank, edges, questions }) => {
        const count = rank.length;
        // Keep edges that go from a higher rank to a lower one: a DAG whatever the listing.
        const needs = Array.from({ length: count }, () => new Set<number>());
        for (const [a, b] of edges) if (rank[a]! > rank[b]!) needs[a]!.add(b);
        const graph = buildPlanGraph({ steps: needs.map((set, id) => ({ id, task: "t", depends_on: [...set] })) });
        const ancestors = (step: number): Set<number> => {
          const found = new Set<number>();
          const stack = [...needs[step]!];
          while (stack.length > 0) {
            const need = stack.pop()!;
            if (found.has(need)) continue;
            found.add(need);
            stack.push(...needs[need]!);
          }
          return found;
        };
        const expected = questions.map((question) => ancestors(question.step).has(question.on));
        expect(dependsOnEach(graph, questions, topologicalOrder(graph))).toEqual(expected);
      }),
    );
  });

  it("takes plan order as the order of dependencies when given none", () => {
    // 0 <- 1 <- 2, and 3 alone: every step depends only on earlier ones.
    const graph = buildPlanGraph({
      steps: [
        { id: 0, task: "t", depends_on: [] },
        { id: 1, task: "t", depends_on: [0] },
        { id: 2, task: "t", depends_on: [1] },
        { id: 3, task: "t", depends_on: [] },
      ],
    });
    const questions = [
      { step: 2, on: 0 },
      { step: 3, on: 0 },
      { step: 0, on: 2 },
      { step: 2, on: 2 },
    ];
    expect(dependsOnEach(graph, questions)).toEqual([true, false, false, false]);
  });
});
