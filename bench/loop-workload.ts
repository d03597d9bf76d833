// The ReAct loop's own overhead: a model and a tool that answer at once, for many steps.
// Shared by bench:loop (one build) and bench:loop-compare (two builds in one process).
import { z } from "zod";
import type { defineTool, ModelDecision, runAgent } from "../dist/index.js";

/** The two exports the workload needs, from whichever build is measured. */
export interface LoopLibrary {
  defineTool: typeof defineTool;
  runAgent: typeof runAgent;
}

export interface LoopMeasure {
  microsPerStep: number;
  /** CPU time of the whole process (all its threads) per step: steadier than wall time on a busy machine. */
  cpuMicrosPerStep: number;
  heapMb: number;
  messages: number;
}

/** Returns a function that runs `steps` model calls, each asking for one instant tool call. */
export function loopWorkload(library: LoopLibrary): (steps: number) => Promise<LoopMeasure> {
  const echo = library.defineTool({
    name: "echo",
    description: "Echo",
    input: z.object({ n: z.number() }),
    execute: ({ n }) => n,
  });
  return async (steps) => {
    const model = ({ step }: { step: number }): ModelDecision =>
      step + 1 < steps
        ? {
            type: "tool_calls",
            calls: [{ id: step, name: "echo", arguments: { n: step } }],
            usage: { inputTokens: 1, outputTokens: 1 },
          }
        : { type: "final", content: "done" };
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const result = await library.runAgent({ model, tools: [echo], maxSteps: steps });
    const elapsedNs = Number(process.hrtime.bigint() - started);
    const cpu = process.cpuUsage(cpuBefore);
    collectGarbage();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    if (result.status !== "completed") throw new Error(`benchmark run ended ${result.status}`);
    return {
      microsPerStep: elapsedNs / 1000 / steps,
      cpuMicrosPerStep: (cpu.user + cpu.system) / steps,
      heapMb,
      messages: result.messages.length,
    };
  };
}

export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
