import { z } from "zod";
import { defineTool, executePlan } from "../dist/index.js";
const noop = defineTool({ name: "noop", description: "x", input: z.object({}), execute: () => 1 });
const n = 10000;
const fan = Array.from({ length: n - 1 }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {} }));
fan.push({ id: "join", task: "join", tool: "noop", args: {}, depends_on: fan.map((s) => s.id) });
const chain = Array.from({ length: n }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {}, depends_on: index === 0 ? [] : [index - 1] }));
for (const [name, steps] of [["fan", fan], ["chain", chain]]) {
  const times = [];
  for (let r = 0; r < 15; r++) {
    const t = performance.now();
    await executePlan({ plan: { steps }, tools: [noop], concurrency: 8 });
    times.push((performance.now() - t) * 1000 / n);
  }
  times.sort((a, b) => a - b);
  console.log(name, "median", times[7].toFixed(2), "min", times[0].toFixed(2));
}
