import { describe, expect, it } from "vitest";
import { atOnce, inTurns, type Stepwise } from "./turns.js";

/** Two pieces of work; the first asks the event loop for a turn, to see when it is given. */
function* twoPieces(order: string[]): Stepwise<number> {
  order.push("piece 1");
  setImmediate(() => order.push("turn"));
  yield;
  order.push("piece 2");
  return 2;
}

describe("stepwise work", () => {
  it("runs at once without letting the event loop turn", () => {
    const order: string[] = [];
    expect(atOnce(twoPieces(order))).toBe(2);
    expect(order).toEqual(["piece 1", "piece 2"]);
  });

  it("lets the event loop turn between pieces once a slice is used up", async () => {
    const order: string[] = [];
    expect(await inTurns(twoPieces(order), { sliceMs: 0 })).toBe(2);
    expect(order).toEqual(["piece 1", "turn", "piece 2"]);
  });

  it("goes on within a slice", async () => {
    const order: string[] = [];
    expect(await inTurns(twoPieces(order), { sliceMs: 60_000 })).toBe(2);
    expect(order).toEqual(["piece 1", "piece 2"]);
  });
});
