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

  it("puts three hundred thousand waiting steps in order again when their priorities change", () => {
    const count = 300_000;
    const priorities = new Float64Array(count);
    const queue = new ReadyQueue(priorities);
    // Half in the line, half in the heap: steps pushed out of order go to the heap.
    for (let step = 0; step < count; step += 2) queue.push(step);
    for (let step = count - 1; step > 0; step -= 2) queue.push(step);
    for (let step = 0; step < count; step += 1) priorities[step] = step % 3;
    queue.reorder();
    expect(queue.size).toBe(count);
    let previous = queue.pop()!;
    expect(previous).toBe(2);
    for (let popped = 1; popped < count; popped += 1) {
      const step = queue.pop()!;
      const ordered = priorities[step]! < priorities[previous]! || (priorities[step] === priorities[previous] && step > previous);
      if (!ordered) expect({ previous, step }).toBe("in order");
      previous = step;
    }
    expect(queue.pop()).toBeUndefined();
  });
});
