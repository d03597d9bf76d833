import { describe, expect, it } from "vitest";
import { FakeClock } from "../../testing/fake-clock.js";
import type { ToolContext } from "./define-tool.js";
import { runAdmittedCall, type Admission } from "./tool-runner.js";

const call = { id: "c1", name: "slow" };

/** An admitted call of a tool that runs `execute`. */
function admitted(execute: (context: ToolContext) => unknown, timeoutMs?: number): Extract<Admission, { kind: "run" }> {
  return { kind: "run", tool: { execute: (_args: unknown, context: ToolContext) => execute(context) }, args: {}, timeoutMs };
}

function options(clock: FakeClock, signal = new AbortController().signal) {
  return { signal, step: 0, clock, maxOutputChars: 50 };
}

describe("runAdmittedCall", () => {
  it("returns the output, cut to the limit with a marker", async () => {
    const clock = new FakeClock();
    const short = await runAdmittedCall(
      call,
      admitted(() => ({ rows: 3 })),
      options(clock),
    );
    expect(short).toEqual({ content: { rows: 3 } });
    const long = await runAdmittedCall(
      call,
      admitted(() => "x".repeat(120)),
      options(clock),
    );
    expect(long.content).toBe(`${"x".repeat(50)}\n[truncated: showing 50 of 120 characters]`);
  });

  it("turns a throw into an outcome the model reads", async () => {
    const clock = new FakeClock();
    const outcome = await runAdmittedCall(
      call,
      admitted(() => {
        throw new Error("disk full");
      }),
      options(clock),
    );
    expect(outcome.error).toEqual({ kind: "execution_failed", message: '"slow" failed: disk full' });
    expect(outcome.content).toBe('Error: "slow" failed: disk full');
  });

  it("aborts a call that passes its timeout and tells the tool", async () => {
    const clock = new FakeClock();
    let toolSignal: AbortSignal | undefined;
    const pending = runAdmittedCall(
      call,
      admitted(({ signal }) => {
        toolSignal = signal;
        return clock.sleep(5000);
      }, 1000),
      options(clock),
    );
    await clock.advance(1000);
    expect((await pending).error?.kind).toBe("timeout");
    expect(toolSignal?.aborted).toBe(true);
  });

  it("returns at once on abort even when the tool ignores its signal", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = runAdmittedCall(
      call,
      admitted(() => new Promise(() => {})),
      options(clock, controller.signal),
    );
    controller.abort();
    expect((await pending).error?.kind).toBe("cancelled");
  });
});
