import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReadyQueue } from "./ready-queue.js";

describe("ReadyQueue", () => {
  it("pops the highest priority first, the earliest step among equals, for any mix of pushes and pops", () => {
    // A push is a step number; null is a pop. Priorities come from a small range, so ties are common.
    const operations = fc.array(fc.oneof(fc.nat({ max: 60 }), fc.constant(null)), { maxLength: 120 });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 61, maxLength: 61 }), operations, (priorities, script) => {
        const queue = new ReadyQueue(Float64Array.from(priorities));
        const model: number[] = [];
        const best = () => model.reduce((a, b) => (priorities[b]! > priorities[a]! || (priorities[b] === priorities[a] && b < a) ? b : a));
        for (const operation of script) {
          if (operation === null) {
            const expected = model.length === 0 ? undefined : best();
            if (expected !== undefined) model.splice(model.indexOf(expected), 1);
            expect(queue.pop()).toBe(expected);
          } else {
            queue.push(operation);
            model.push(operation);
          }
          expect(queue.size).toBe(model.length);
        }
      }),
    );
  });

  it("without priorities, pops steps in plan order", () => {
    const queue = new ReadyQueue();
    for (const step of [5, 2, 9, 0, 7]) queue.push(step);
    expect([queue.pop(), queue.pop(), queue.pop(), queue.pop(), queue.pop(), queue.pop()]).toEqual([0, 2, 5, 7, 9, undefined]);
  });
});
