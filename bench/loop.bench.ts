// The ReAct loop's own overhead: a model and a tool that answer at once, for many steps.
// Prints microseconds per step and heap growth; memory should grow linearly with history.
// Runs against the built package (dist/). Run: npm run bench:loop
import { defineTool, runAgent } from "../dist/index.js";
import { loopWorkload } from "./loop-workload.js";

const measure = loopWorkload({ defineTool, runAgent });
await measure(1_000); // warm up the JIT
console.log(`gc exposed: ${typeof (globalThis as { gc?: unknown }).gc === "function"}`);
console.log("steps\tµs/step\theap growth (MB)\tmessages\tbytes/message");
for (const steps of [2_500, 5_000, 10_000]) {
  const { microsPerStep, heapMb, messages } = await measure(steps);
  const perMessage = Math.round((heapMb * 2 ** 20) / messages);
  console.log(`${steps}\t${microsPerStep.toFixed(1)}\t${heapMb.toFixed(2)}\t\t\t${messages}\t\t${perMessage}`);
}
