import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StepLinks } from "./step-links.js";

describe("StepLinks", () => {
  it("keeps each step's links in the order they were added while steps and links grow past the room given", () => {
    // An operation is a new step (null) or a link [from, to] between steps made so far.
    const operations = fc.array(fc.oneof(fc.constant(null), fc.tuple(fc.nat(), fc.nat())), { maxLength: 200 });
    fc.assert(
      fc.property(fc.nat({ max: 3 }), fc.nat({ max: 3 }), operations, (steps, links, script) => {
        const graph = new StepLinks(steps, links);
        const model: number[][] = [];
        for (const operation of script) {
          if (operation === null) {
            expect(graph.addStep()).toBe(model.length);
            model.push([]);
          } else if (model.length > 0) {
            const [from, to] = [operation[0] % model.length, operation[1] % model.length];
            graph.add(from, to);
            model[from]!.push(to);
          }
        }
        expect(graph.size).toBe(model.length);
        model.forEach((targets, step) => {
          expect(graph.list(step)).toEqual(targets);
          expect(graph.count(step)).toBe(targets.length);
          const walked: number[] = [];
          for (let link = graph.first(step); link !== -1; link = graph.next(link)) walked.push(graph.target(link));
          expect(walked).toEqual(targets);
          expect([...graph.linked(step)]).toEqual(targets);
          for (let other = 0; other < model.length; other += 1) expect(graph.has(step, other)).toBe(targets.includes(other));
        });
      }),
    );
  });
});
