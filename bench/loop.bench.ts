// The ReAct loop's own overhead: a model and a tool that answer at once, for many steps.
// Prints microseconds per step and heap growth; memory should grow linearly with history.
// Runs against the built package (dist/). Run: npm run bench:loop
import { z } from "zod";
import { defineTool, runAgent, type ModelDecision } from "../dist/index.js";

const echo = defineTool({ name: "echo", description: "Echo", input: z.object({ n: z.number() }), execute: ({ n }) => n });

async function measure(steps: number): Promise<{ microsPerStep: number; heapMb: number; messages: number }> {
  const model = ({ step }: { step: number }): ModelDecision =>
    step + 1 < steps
      ? { type: "tool_calls", calls: [{ id: step, name: "echo", arguments: { n: step } }], usage: { inputTokens: 1, outputTokens: 1 } }
      : { type: "final", content: "done" };
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const result = await runAgent({ model, tools: [echo], maxSteps: steps });
  const elapsedNs = Number(process.hrtime.bigint() - started);
  collectGarbage();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  if (result.status !== "completed") throw new Error(`benchmark run ended ${result.status}`);
  return { microsPerStep: elapsedNs / 1000 / steps, heapMb, messages: result.messages.length };
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

await measure(1_000); // warm up the JIT
console.log(`gc exposed: ${typeof (globalThis as { gc?: unknown }).gc === "function"}`);
console.log("steps\tµs/step\theap growth (MB)\tmessages\tbytes/message");
for (const steps of [2_500, 5_000, 10_000]) {
  const { microsPerStep, heapMb, messages } = await measure(steps);
  const perMessage = Math.round((heapMb * 2 ** 20) / messages);
  console.log(`${steps}\t${microsPerStep.toFixed(1)}\t${heapMb.toFixed(2)}\t\t\t${messages}\t\t${perMessage}`);
}
