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
              // Waiting longer than the owner: those before it in the waiting order (all, if it is not waiting).
              const order = [...waiting];
              const place = order.includes(move.owner) ? order.indexOf(move.owner) : order.length;
              const ahead = order.some(
                (other, index) =>
                  other !== move.owner && ((held.get(other) ?? 0) < mine || ((held.get(other) ?? 0) === mine && index < place)),
              );
              const granted = slots.for(move.owner).take(() => {});
              if (granted) {
                expect(ahead).toBe(false);
                waiting.delete(move.owner);
              } else {
                if (!waiting.has(move.owner)) waiting.add(move.owner);
              }
            } else if ((held.get(move.owner) ?? 0) > 0) slots.for(move.owner).release();
            expect([...slots.holdings().values()].reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(size);
          }
        },
      ),
    );
  });

  it("runs that wait with as many slots as each other are all served: none is stranded (issue 54)", () => {
    // 100 one-step runs on 32 slots, as 100 runs POSTed to the server at once: each asks for a
    // slot, runs its step and releases it; a woken run asks again.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 3 }),
        (size, runs, stepsEach) => {
          const slots = new StepSlots(size);
          const left = new Map(Array.from({ length: runs }, (_, index) => [`r${index}`, stepsEach]));
          const running: string[] = [];
          const woken: string[] = [];
          const ask = (owner: string) => {
            if ((left.get(owner) ?? 0) === 0) return;
            if (!slots.for(owner).take(() => woken.push(owner))) return;
            left.set(owner, left.get(owner)! - 1);
            running.push(owner);
          };
          for (const owner of left.keys()) ask(owner);
          for (let turn = 0; running.length > 0 || woken.length > 0; turn += 1) {
            expect(turn).toBeLessThan(runs * stepsEach * 4);
            // A step ends: its run releases, then asks again for its next step; woken runs ask.
            const ended = running.shift();
            if (ended !== undefined) {
              slots.for(ended).release();
              ask(ended);
              if (left.get(ended) === 0) slots.for(ended).leave();
            }
            for (const owner of woken.splice(0)) ask(owner);
          }
          expect([...left.values()].every((count) => count === 0)).toBe(true);
        },
      ),
    );
  });

  it("100 one-step runs on 32 slots all run", () => {
    const slots = new StepSlots(32);
    const done = new Set<string>();
    const queue: string[] = [];
    const ask = (owner: string) => {
      if (!done.has(owner) && slots.for(owner).take(() => queue.push(owner))) {
        done.add(owner);
        queue.push(`end:${owner}`);
      }
    };
    for (let index = 0; index < 100; index += 1) ask(`run-${index}`);
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (next.startsWith("end:")) {
        slots.for(next.slice(4)).release();
        slots.for(next.slice(4)).leave();
      } else ask(next);
    }
    expect(done.size).toBe(100);
  });
});
