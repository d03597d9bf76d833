// One case of bench/scale.bench.ts, in a process of its own: plain JavaScript on the built
// package, so the peak RSS it reports is node, zod and planloop running the plan (no
// TypeScript loader: tsx alone adds about 40 MB). Prints { usPerStep } or, given `memory`,
// { peakRssMb } as JSON. By hand: npm run build && node bench/scale-case.mjs wide 100000 [memory]
import { z } from "zod";
import { defineTool, executePlan } from "../dist/index.js";

const [, , kind, sizeText, measure] = process.argv;
const size = Number(sizeText);
const syncNoop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });
const asyncNoop = defineTool({ name: "noop", description: "Returns on the next turn", input: z.object({}), execute: async () => 1 });
const tools = [kind === "wide" ? asyncNoop : syncNoop];

/** A chain (each step after the one before), or steps that depend on nothing. */
function planFor(count) {
  const chained = kind === "chain";
  return {
    steps: Array.from({ length: count }, (_, index) => ({
      id: index,
      task: "n",
      tool: "noop",
      args: {},
      ...(chained && index > 0 ? { depends_on: [index - 1] } : {}),
    })),
  };
}

/** The wide cases run every step at once; the others eight at a time. */
function concurrencyFor(count) {
  return kind.startsWith("wide") ? count : 8;
}

// Warm the JIT up on small plans first, so 1,000 steps are not measured cold (it takes V8
// about ten runs to settle on its optimized code).
for (let round = 0; round < 20; round += 1) {
  await executePlan({ plan: planFor(1_000), tools, concurrency: concurrencyFor(1_000) });
}
// Time: more rounds where a round is short (a 1,000-step run takes a few milliseconds, and
// one collection of the heap in it moves its figure by half), the median. Memory: one run,
// so the peak is that run's and not that run's plus the garbage of the rounds before.
// (Collecting the heap between rounds instead would skew the times: a full collection
// shrinks V8's young generation, and the next run starts in a heap that has to grow back.)
const rounds = measure === "memory" ? 1 : size >= 100_000 ? 3 : size >= 10_000 ? 9 : 21;
const samples = [];
for (let round = 0; round < rounds; round += 1) {
  const plan = planFor(size);
  const started = performance.now();
  const result = await executePlan({ plan, tools, concurrency: concurrencyFor(size) });
  samples.push(((performance.now() - started) * 1000) / size);
  if (result.status !== "completed") throw new Error(result.status);
}
samples.sort((a, b) => a - b);
const usPerStep = samples[Math.floor(samples.length / 2)];
console.log(JSON.stringify(measure === "memory" ? { peakRssMb: process.resourceUsage().maxRSS / 1024 } : { usPerStep }));
