import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { StepSlots } from "./step-slots.js";

describe("StepSlots", () => {
  it("a freed slot goes to the waiting run that holds the fewest, not to the run that freed it", () => {
    const slots = new StepSlots(2);
    const a = slots.for("a");
    const b = slots.for("b");
    const woken: string[] = [];
    expect([a.take(() => woken.push("a")), a.take(() => woken.push("a"))]).toEqual([true, true]);
    // a holds both; b asks and waits; a asks for a third and waits behind b.
    expect(b.take(() => woken.push("b"))).toBe(false);
    expect(a.take(() => woken.push("a"))).toBe(false);
    a.release();
    expect(woken).toEqual(["b"]);
    // a's own pump, right after its step ended, may not take the slot b was woken for.
    expect(a.take(() => woken.push("a"))).toBe(false);
    expect(b.take(() => woken.push("b"))).toBe(true);
    expect(Object.fromEntries(slots.holdings())).toEqual({ a: 1, b: 1 });
  });

  it("a run that leaves while waiting passes its turn on", () => {
    const slots = new StepSlots(1);
    const woken: string[] = [];
    expect(slots.for("a").take(() => woken.push("a"))).toBe(true);
    expect(slots.for("b").take(() => woken.push("b"))).toBe(false);
    expect(slots.for("c").take(() => woken.push("c"))).toBe(false);
    slots.for("a").release();
    slots.for("b").leave();
    expect(woken).toEqual(["b", "c"]);
    expect(slots.for("c").take(() => {})).toBe(true);
  });

  it("never hands out more than its size; every grant goes to a run holding no more than any waiting run", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ owner: fc.constantFrom("a", "b", "c"), take: fc.boolean() }), { maxLength: 80 }),
        (size, moves) => {
          const slots = new StepSlots(size);
          const waiting = new Set<string>();
          for (const move of moves) {
            const held = slots.holdings();
            if (move.take) {
              const mine = held.get(move.owner) ?? 0;
              const fairest = Math.min(...[...waiting].filter((other) => other !== move.owner).map((other) => held.get(other) ?? 0));
              const granted = slots.for(move.owner).take(() => {});
              if (granted) {
                expect(mine).toBeLessThan(fairest === Infinity ? Infinity : fairest);
                waiting.delete(move.owner);
              } else waiting.add(move.owner);
            } else if ((held.get(move.owner) ?? 0) > 0) slots.for(move.owner).release();
            expect([...slots.holdings().values()].reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(size);
          }
        },
      ),
    );
  });
});
