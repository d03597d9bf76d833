import { describe, expect, it } from "vitest";
import { z } from "zod";
import { executePlan } from "../executor/execute-plan.js";
import { childSignal, raceAbort, SettleWaiter, whenSettled } from "./abort.js";
import { defineTool } from "./tools/define-tool.js";

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

describe("childSignal", () => {
  it("parallel calls that each hang a listener on their signal put none on the run's: no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const gates: Array<() => void> = [];
      // As an HTTP client does per request: a listener on the signal it is given.
      const request = defineTool({
        name: "request",
        description: "waits on its signal",
        input: z.object({ n: z.number() }),
        execute: (_args, { signal }) =>
          new Promise<number>((resolve) => {
            signal.addEventListener("abort", () => resolve(-1));
            gates.push(() => resolve(1));
          }),
      });
      const steps = Array.from({ length: 30 }, (_, index) => ({ id: index, task: "r", tool: "request", args: { n: index } }));
      const running = executePlan({ plan: { steps }, tools: [request], concurrency: 30 });
      while (gates.length < 30) await new Promise((resolve) => setImmediate(resolve));
      for (const open of gates) open();
      expect((await running).status).toBe("completed");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("aborts with its parent, alone when asked, and not after it is released", () => {
    const parent = new AbortController();
    const held = childSignal(parent.signal);
    const released = childSignal(parent.signal);
    const alone = childSignal(parent.signal);
    alone.abort("time is up");
    expect(alone.signal.reason).toBe("time is up");
    expect(parent.signal.aborted).toBe(false);
    released.release();
    parent.abort("stop");
    expect(held.signal.reason).toBe("stop");
    expect(released.signal.aborted).toBe(false);
    expect(childSignal(parent.signal).signal.reason).toBe("stop");
  });
});
