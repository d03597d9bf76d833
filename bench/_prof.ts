import { z } from "zod";
import { defineTool, executePlan } from "../src/index.js";
const noop = defineTool({ name: "noop", description: "x", input: z.object({}), execute: () => 1 });
const n = 10000;
const plan = { steps: Array.from({ length: n }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {}, depends_on: index === 0 ? [] : [index - 1] })) };
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  await executePlan({ plan, tools: [noop], concurrency: 8 });
  console.log("execute", ((performance.now() - t) * 1000 / n).toFixed(2), "µs/step");
}
