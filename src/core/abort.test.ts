import { describe, expect, it } from "vitest";
import { raceAbort, SettleWaiter, whenSettled } from "./abort.js";

class Recorder extends SettleWaiter {
  readonly heard: Array<[boolean, unknown]> = [];
  settle(ok: boolean, value: unknown): void {
    this.heard.push([ok, value]);
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe("waiting on a promise and a signal", () => {
  it("tells each waiter once: the ones still waiting hear of the abort, the ones settled before do not", async () => {
    const controller = new AbortController();
    const pending = Array.from({ length: 5 }, () => deferred<number>());
    const waiters = pending.map(() => new Recorder());
    pending.forEach((entry, index) => whenSettled(entry.promise, controller.signal, waiters[index]!));
    pending[1]!.resolve(1);
    pending[3]!.reject(new Error("no"));
    await Promise.resolve();
    controller.abort("stop");
    pending.forEach((entry) => entry.resolve(9));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waiters.map((waiter) => waiter.heard)).toEqual([
      [[false, "stop"]],
      [[true, 1]],
      [[false, "stop"]],
      [[false, new Error("no")]],
      [[false, "stop"]],
    ]);
  });

  it("lets a waiter wait again once it has been told, and tells an already aborted signal at once", async () => {
    const controller = new AbortController();
    const waiter = new Recorder();
    whenSettled(Promise.resolve("first"), controller.signal, waiter);
    await Promise.resolve();
    whenSettled(Promise.resolve("second"), controller.signal, waiter);
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort("late");
    whenSettled(Promise.resolve("third"), controller.signal, waiter);
    expect(waiter.heard).toEqual([
      [true, "first"],
      [true, "second"],
      [false, "late"],
    ]);
  });

  it("races a promise against the abort", async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(3), controller.signal)).resolves.toBe(3);
    const never = new Promise<number>(() => {});
    const raced = raceAbort(never, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(raced).rejects.toThrow("cancelled");
    await expect(raceAbort(Promise.resolve(1), controller.signal)).rejects.toThrow("cancelled");
  });
});
