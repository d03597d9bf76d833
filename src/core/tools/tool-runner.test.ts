import { describe, expect, it } from "vitest";
import { FakeClock } from "../../testing/fake-clock.js";
import { runAdmittedCall } from "./tool-runner.js";

const call = { id: "c1", name: "slow" };

function options(clock: FakeClock, signal = new AbortController().signal) {
  return { signal, step: 0, clock, maxOutputChars: 50 };
}

describe("runAdmittedCall", () => {
  it("returns the output, cut to the limit with a marker", async () => {
    const clock = new FakeClock();
    const short = await runAdmittedCall(call, { kind: "run", execute: () => ({ rows: 3 }) }, options(clock));
    expect(short).toEqual({ content: { rows: 3 } });
    const long = await runAdmittedCall(call, { kind: "run", execute: () => "x".repeat(120) }, options(clock));
    expect(long.content).toBe(`${"x".repeat(50)}\n[truncated: showing 50 of 120 characters]`);
  });

  it("turns a throw into an outcome the model reads", async () => {
    const clock = new FakeClock();
    const outcome = await runAdmittedCall(call, { kind: "run", execute: () => { throw new Error("disk full"); } }, options(clock));
    expect(outcome.error).toEqual({ kind: "execution_failed", message: '"slow" failed: disk full' });
    expect(outcome.content).toBe('Error: "slow" failed: disk full');
  });

  it("aborts a call that passes its timeout and tells the tool", async () => {
    const clock = new FakeClock();
    let toolSignal: AbortSignal | undefined;
    const pending = runAdmittedCall(
      call,
      { kind: "run", timeoutMs: 1000, execute: ({ signal }) => { toolSignal = signal; return clock.sleep(5000); } },
      options(clock),
    );
    await clock.advance(1000);
    expect((await pending).error?.kind).toBe("timeout");
    expect(toolSignal?.aborted).toBe(true);
  });

  it("returns at once on abort even when the tool ignores its signal", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = runAdmittedCall(call, { kind: "run", execute: () => new Promise(() => {}) }, options(clock, controller.signal));
    controller.abort();
    expect((await pending).error?.kind).toBe("cancelled");
  });
});
