// The executor's cost per zero-work step, in a Node process of its own (bench/scheduler.bench.ts
// starts it, once with V8's defaults and once with a larger young generation). Run on its own:
// npm run build && node --expose-gc --import tsx bench/scheduler-overhead.ts
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  chain,
  fanOut,
  limitedToolLine,
  overheadReport,
  placeholderChain,
  referenceLine,
  runPlaceholderChain,
  runWithPlanloop,
  sizeCurve,
  youngGeneration,
} from "./zero-work.js";

const bytesScript = fileURLToPath(new URL("./step-bytes.ts", import.meta.url));
const youngGenerationPass = process.execArgv.includes(youngGeneration);
console.log(
  youngGenerationPass
    ? `\n# The same in a Node started with ${youngGeneration}: a 10,000-step run's records fit in the young generation`
    : "\n# Zero-work steps, concurrency 8, in a Node of their own: median µs per step of back-to-back runs after a warm-up, the two sizes in turns (mean µs per step in garbage collection)",
);
for (const [shape, build] of [
  ["fan-out + join", fanOut],
  ["chain", chain],
] as const) {
  // 30 rounds of ten 1,000-step runs and one 10,000-step run.
  console.log(await overheadReport(shape, build, { run: runWithPlanloop, rounds: 30, smallPerRound: 10, detail: true }));
}
// The reference: a ready-queue engine in a few lines (bench/bare-engine.ts), in this process.
console.log("reference, the bare ready-queue engine in turns with planloop (issue 26: <= 3x):");
for (const [shape, build] of [
  ["fan-out + join", fanOut],
  ["chain", chain],
] as const) {
  console.log(`  ${await referenceLine(shape, build)}`);
}
console.log(await sizeCurve(chain, [500, 2_000, 5_000, 10_000, 20_000, 50_000]));
console.log(await limitedToolLine([1_000, 5_000]));
// Bytes per step, in a process of its own (the profiler slows what it watches); once.
if (!youngGenerationPass) console.log(execFileSync(process.execPath, [...process.execArgv, bytesScript], { encoding: "utf8" }).trimEnd());
// Last, so that its plans (text ids, placeholders) do not shape the code the lines above use:
// text ids and a placeholder per step, as pipelines write plans.
console.log(
  await overheadReport("chain of text ids, each step reading the last output", placeholderChain, {
    run: runPlaceholderChain,
    rounds: 30,
    smallPerRound: 10,
    detail: false,
  }),
);
