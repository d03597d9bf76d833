// A step whose run stopped while the runner was still connecting to Redis: its abort fired before
// the runner listened for it. The runner checked the signal before its first await only, then
// listened on a signal aborted already (whose listeners never run), and the step waited for ever:
// a load series saw a run with a 200 ms deadline hang for 240 s when its connection took longer.
import { afterEach, describe, expect, it } from "vitest";
import { bullmqRunner } from "planloop/bullmq";
import type { ToolJob } from "../../src/executor/step-runner.js";
import { freshQueue, redisUrl, skipRedis } from "../helpers/redis.js";

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** Whichever comes first: `work`, or "still waiting" after `ms` (the timer cleared either way). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | "still waiting"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const job = (runId: string, stepKey: string): ToolJob => ({
  kind: "tool",
  runId,
  stepKey,
  attempt: 1,
  call: { id: stepKey, name: "work", arguments: { name: stepKey, ms: 5 } },
});

describe.skipIf(skipRedis)("a run stopped while its runner connects", () => {
  it("a step asked for and aborted at once is cancelled, not left waiting (no worker: nothing else would end it)", async () => {
    const runner = bullmqRunner({ connection: redisUrl!, queue: freshQueue() });
    closing.push(() => runner.close());
    const controller = new AbortController();
    const steps = [runner.runTool(job("raced", "step:1"), controller.signal), runner.runTool(job("raced", "step:2"), controller.signal)];
    controller.abort(new Error("deadline"));
    // The runner answers at once; 30 s is only the point past which it is taken to wait for ever.
    const outcomes = await Promise.all(steps.map((step) => within(step, 30_000)));
    expect(outcomes.map((outcome) => (outcome === "still waiting" ? outcome : outcome.error?.kind))).toEqual(["cancelled", "cancelled"]);
  });
});
