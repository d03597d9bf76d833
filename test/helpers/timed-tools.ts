// Tools whose latency runs on a FakeClock, and a log of when each step started and ended.
import { z } from "zod";
import { defineTool, type Tool } from "planloop";
import type { FakeClock } from "planloop/testing";

export interface CallLog {
  started: Array<{ step: string; at: number }>;
  ended: Array<{ step: string; at: number }>;
  peak: number;
}

/** A tool "work" taking `ms` (from its args) on the fake clock and returning `{ step, at }`. */
export function workTool(clock: FakeClock, log: CallLog = { started: [], ended: [], peak: 0 }): { tool: Tool; log: CallLog } {
  let running = 0;
  const tool = defineTool({
    name: "work",
    description: "Does some work",
    input: z.object({ step: z.string(), ms: z.number(), fail: z.boolean().optional() }),
    execute: async ({ step, ms, fail }, { signal }) => {
      running += 1;
      log.peak = Math.max(log.peak, running);
      log.started.push({ step, at: clock.now() });
      try {
        await clock.sleep(ms, signal);
        if (fail) throw new Error(`${step} broke`);
        return { step, at: clock.now() };
      } finally {
        running -= 1;
        log.ended.push({ step, at: clock.now() });
      }
    },
  });
  return { tool, log };
}

/** A plan step calling `work` for `ms`, with its estimate given so priorities are exact. */
export function workStep(id: string | number, ms: number, dependsOn: Array<string | number> = [], extra: Record<string, unknown> = {}) {
  return { id, task: `work ${id}`, tool: "work", args: { step: String(id), ms, ...extra }, depends_on: dependsOn, estimateMs: ms };
}
