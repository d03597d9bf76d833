// The plan executor's scheduling quality and overhead, on real timers, against the built
// package (dist/), as users run it. Run: npm run bench:scheduler
import { z } from "zod";
import { defineTool, executePlan, type PlanInput } from "../dist/index.js";
import { seededRandom } from "../src/core/seeded-random.js";
// `--compare` runs every workload through LangGraph.js too, in the same process. It is loaded
// only then: LangGraph's async context tracking slows every promise in the process.
const compare = process.argv.includes("--compare");
const { runWithLangGraph } = compare ? await import("./langgraph-runner.js") : { runWithLangGraph: undefined as never };

const sleepTool = defineTool({
  name: "sleep",
  description: "Sleeps for ms",
  input: z.object({ ms: z.number() }),
  execute: ({ ms }) => new Promise((resolve) => setTimeout(resolve, ms)),
});
const noop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });

/** 200 steps in 10 layers of 20; each depends on 1-3 steps of the layer before; 5-100 ms each. */
function layeredDag(seed: number, options: { estimates: boolean }): { plan: PlanInput; lowerBound: number } {
  const random = seededRandom(seed);
  const layers = 10;
  const width = 20;
  const steps: PlanInput["steps"] = [];
  const finish = new Map<string, number>();
  let totalWork = 0;
  for (let layer = 0; layer < layers; layer += 1) {
    for (let slot = 0; slot < width; slot += 1) {
      const id = `L${layer}-${slot}`;
      const ms = 5 + Math.floor(random() * 96);
      const dependsOn =
        layer === 0
          ? []
          : [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => `L${layer - 1}-${Math.floor(random() * width)}`))];
      totalWork += ms;
      finish.set(id, ms + Math.max(0, ...dependsOn.map((dependency) => finish.get(dependency)!)));
      steps.push({ id, task: id, tool: "sleep", args: { ms }, depends_on: dependsOn, ...(options.estimates ? { estimateMs: ms } : { estimateMs: 0 }) });
    }
  }
  return { plan: { steps }, lowerBound: Math.max(Math.max(...finish.values()), totalWork / 8) };
}

/**
 * Makespan over two lower bounds: from the nominal latencies, and from the durations the
 * steps really took (real timers fire late; that lateness is not the scheduler's doing).
 */
/** LangGraph's makespan on the same DAG, over the nominal lower bound. */
async function langGraphRatio(seed: number): Promise<number> {
  const { plan, lowerBound } = layeredDag(seed, { estimates: true });
  const started = performance.now();
  await runWithLangGraph(plan, (step) => new Promise((resolve) => setTimeout(resolve, (step.args as { ms: number }).ms)), 8);
  return (performance.now() - started) / lowerBound;
}

async function makespanRatios(seed: number, estimates: boolean): Promise<{ nominal: number; measured: number }> {
  const { plan, lowerBound } = layeredDag(seed, { estimates });
  const started = performance.now();
  const result = await executePlan({ plan, tools: [sleepTool], concurrency: 8 });
  const makespan = performance.now() - started;
  if (result.status !== "completed") throw new Error(result.status);
  const took = new Map(Object.entries(result.steps).map(([id, record]) => [id, record.endedAt! - record.startedAt!]));
  const finish = new Map<string, number>();
  for (const step of plan.steps) {
    finish.set(String(step.id), took.get(String(step.id))! + Math.max(0, ...(step.depends_on ?? []).map((id) => finish.get(String(id))!)));
  }
  const work = [...took.values()].reduce((sum, value) => sum + value, 0);
  return { nominal: makespan / lowerBound, measured: makespan / Math.max(Math.max(...finish.values()), work / 8) };
}

function fanOut(size: number): PlanInput {
  const steps: PlanInput["steps"] = Array.from({ length: size - 1 }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {} }));
  steps.push({ id: "join", task: "join", tool: "noop", args: {}, depends_on: steps.map((step) => step.id) });
  return { steps };
}

function chain(size: number): PlanInput {
  return { steps: Array.from({ length: size }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {}, depends_on: index === 0 ? [] : [index - 1] })) };
}

/** The median of five runs, so one garbage collection does not decide the number. */
async function overhead(plan: PlanInput, engine: "planloop" | "langgraph" = "planloop", repeats = 5): Promise<{ micros: number; peakMb: number }> {
  const runs = [];
  for (let run = 0; run < repeats; run += 1) runs.push(engine === "planloop" ? await overheadOnce(plan) : await langGraphOverhead(plan));
  runs.sort((a, b) => a.micros - b.micros);
  return runs[Math.floor(runs.length / 2)]!;
}

async function overheadOnce(plan: PlanInput): Promise<{ micros: number; peakMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const started = process.hrtime.bigint();
  const result = await executePlan({ plan, tools: [noop], concurrency: 8 });
  const elapsed = Number(process.hrtime.bigint() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  if (result.status !== "completed") throw new Error(result.status);
  return { micros: elapsed / plan.steps.length, peakMb: (peak - baseline) / 2 ** 20 };
}

console.log("# Random layered DAG: 200 steps, 5-100 ms, concurrency 8");
console.log("# makespan / lower bound, with the bound from nominal latencies | from measured step durations");
for (const [label, estimates] of [["longest remaining path first", true], ["FIFO (no estimates)", false]] as const) {
  const ratios = [];
  for (const seed of [1, 2, 3]) ratios.push(await makespanRatios(seed, estimates));
  const mean = (values: number[]) => (values.reduce((a, b) => a + b) / values.length).toFixed(3);
  console.log(
    `${label}: nominal ${ratios.map((ratio) => ratio.nominal.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.nominal))}) | ` +
      `measured ${ratios.map((ratio) => ratio.measured.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.measured))})`,
  );
}

if (compare) {
  const ratios = [];
  for (const seed of [1, 2, 3]) ratios.push(await langGraphRatio(seed));
  console.log(`LangGraph.js (supersteps): nominal ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")} (mean ${(ratios.reduce((a, b) => a + b) / ratios.length).toFixed(3)})`);
}

console.log("\n# Zero-work steps, concurrency 8 (µs per step, peak heap growth)");
await overhead(fanOut(1_000));
for (const [shape, build] of [["fan-out + join", fanOut], ["chain", chain]] as const) {
  // A 1,000-step run takes a few milliseconds: more repeats keep its median steady.
  const small = await overhead(build(1_000), "planloop", 21);
  const large = await overhead(build(10_000), "planloop", 7);
  const growth = (large.micros * 10_000) / (small.micros * 1_000);
  console.log(
    `${shape}: 1,000 steps ${small.micros.toFixed(2)} µs/step (${small.peakMb.toFixed(1)} MB); ` +
      `10,000 steps ${large.micros.toFixed(2)} µs/step (${large.peakMb.toFixed(1)} MB); 10x steps cost ${growth.toFixed(1)}x time`,
  );
}

async function langGraphOverhead(plan: PlanInput): Promise<{ micros: number; peakMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const done = await runWithLangGraph(plan, () => {}, 8);
  const elapsed = Number(process.hrtime.bigint() - started) / 1000;
  if (done !== plan.steps.length) throw new Error(`LangGraph ran ${done} of ${plan.steps.length} steps`);
  return { micros: elapsed / plan.steps.length, peakMb: (process.memoryUsage().heapUsed - baseline) / 2 ** 20 };
}

if (compare) {
  console.log("\n# The same zero-work workloads through LangGraph.js (median of 3; 10,000 steps once)");
  for (const [shape, build] of [["fan-out + join", fanOut], ["chain", chain]] as const) {
    const small = await overhead(build(1_000), "langgraph", 3);
    const large = await overhead(build(10_000), "langgraph", 1);
    const growth = (large.micros * 10_000) / (small.micros * 1_000);
    console.log(`${shape}: 1,000 steps ${small.micros.toFixed(2)} µs/step; 10,000 steps ${large.micros.toFixed(2)} µs/step; 10x steps cost ${growth.toFixed(1)}x time`);
  }
}
