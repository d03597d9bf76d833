// Zero-work plans through the executor: how much it costs per step, and how that grows with
// the plan. Shared by the overhead bench (bench/scheduler-overhead.ts) and the LangGraph.js
// comparison in bench/scheduler.bench.ts.
import { PerformanceObserver } from "node:perf_hooks";
import { z } from "zod";
import { defineTool, executePlan, type PlanInput, type Tool } from "../dist/index.js";
import { runBareEngine } from "./bare-engine.js";

/** V8's young generation is 16 MB by default; the second overhead pass runs with this. */
export const youngGeneration = "--max-semi-space-size=32";

/** Runs a plan whose steps do nothing, to the end. */
export type RunPlan = (plan: PlanInput) => Promise<void>;

const noop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });
const next = defineTool({
  name: "next",
  description: "Adds one",
  input: z.object({ value: z.number() }),
  execute: ({ value }) => value + 1,
});

/** Runs plans through `executePlan` with these tools, each to completion. */
function runWith(tools: Tool[]): RunPlan {
  return async (plan) => {
    const result = await executePlan({ plan, tools, concurrency: 8 });
    if (result.status !== "completed") throw new Error(result.status);
  };
}

export const runWithPlanloop = runWith([noop]);
/** Runs `placeholderChain` plans. */
export const runPlaceholderChain = runWith([next]);

/** A chain as pipelines write one: text ids, each step reading the one before through a placeholder. */
export function placeholderChain(size: number): PlanInput {
  return {
    steps: Array.from({ length: size }, (_, index) => ({
      id: `step-${index}`,
      task: "add one",
      tool: "next",
      args: { value: index === 0 ? 0 : `\${step-${index - 1}}` },
      depends_on: index === 0 ? [] : [`step-${index - 1}`],
    })),
  };
}

export function fanOut(size: number): PlanInput {
  const steps: PlanInput["steps"] = Array.from({ length: size - 1 }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {} }));
  steps.push({ id: "join", task: "join", tool: "noop", args: {}, depends_on: steps.map((step) => step.id) });
  return { steps };
}

export function chain(size: number): PlanInput {
  return {
    steps: Array.from({ length: size }, (_, index) => ({
      id: index,
      task: "n",
      tool: "noop",
      args: {},
      depends_on: index === 0 ? [] : [index - 1],
    })),
  };
}

// Garbage collection time, added up while `collections.counting` is set.
const collections = { counting: false, ms: 0, observer: undefined as PerformanceObserver | undefined };

/** Starts listening for collections, once per process. */
function countCollections(): void {
  if (collections.observer) return;
  collections.observer = new PerformanceObserver((list) => {
    if (collections.counting) for (const entry of list.getEntries()) collections.ms += entry.duration;
  });
  collections.observer.observe({ entryTypes: ["gc"] });
}

/**
 * Microseconds per step: the median of back-to-back runs after a warm-up, as a process that
 * runs plans sees it (collections happen as they come), and the mean share of that spent in
 * garbage collection. Several plans are taken in turns (`perRound` runs of each per round),
 * so that every size samples the same moments of a noisy machine. With `coldHeap`, each run
 * follows a forced full collection instead, which hands memory back to the system and
 * shrinks the young generation: the next run pays for getting it back, so that figure is
 * printed beside.
 */
async function microsPerStep(
  plans: Array<{ plan: PlanInput; perRound: number; run?: RunPlan }>,
  options: { run: RunPlan; rounds: number; coldHeap?: boolean },
): Promise<Array<{ micros: number; gcMicros: number }>> {
  countCollections();
  const times: number[][] = plans.map(() => []);
  const collecting = plans.map(() => 0);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [which, { plan, perRound, run: runThis }] of plans.entries()) {
      for (let run = 0; run < perRound; run += 1) {
        if (options.coldHeap) (globalThis as { gc?: () => void }).gc?.();
        // Entries of earlier collections arrive late: let them land before counting starts.
        await new Promise((resolve) => setImmediate(resolve));
        Object.assign(collections, { counting: true, ms: 0 });
        const started = process.hrtime.bigint();
        await (runThis ?? options.run)(plan);
        times[which]!.push(Number(process.hrtime.bigint() - started) / 1000 / plan.steps.length);
        await new Promise((resolve) => setImmediate(resolve));
        collections.counting = false;
        collecting[which]! += collections.ms;
      }
    }
  }
  return plans.map(({ plan, perRound }, which) => {
    const sorted = times[which]!.sort((a, b) => a - b);
    return {
      micros: sorted[Math.floor(sorted.length / 2)]!,
      gcMicros: (collecting[which]! * 1000) / (options.rounds * perRound * plan.steps.length),
    };
  });
}

/** Peak heap growth of one run that starts after a full collection, sampled every 5 ms. */
async function peakHeapMb(plan: PlanInput, run: RunPlan): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  await run(plan);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return (peak - baseline) / 2 ** 20;
}

/**
 * One line per shape: 1,000 and 10,000 steps taken in turns (`rounds` rounds of `smallPerRound`
 * small runs, then one large run). `detail` adds the cold-heap time and the peak heap (too
 * slow for LangGraph).
 */
export async function overheadReport(
  shape: string,
  build: (size: number) => PlanInput,
  options: { run: RunPlan; rounds: number; smallPerRound: number; detail: boolean },
): Promise<string> {
  const { run } = options;
  const small = build(1_000);
  const large = build(10_000);
  await microsPerStep(
    [
      { plan: small, perRound: 3 },
      { plan: large, perRound: 1 },
    ],
    { run, rounds: 1 },
  );
  const [smallRuns, largeRuns] = await microsPerStep(
    [
      { plan: small, perRound: options.smallPerRound },
      { plan: large, perRound: 1 },
    ],
    { run, rounds: options.rounds },
  );
  const growth = (largeRuns!.micros * 10) / smallRuns!.micros;
  // (Collection time is shown for planloop only: LangGraph's long runs report theirs late.)
  const size = (label: string, runs: { micros: number; gcMicros: number }) =>
    `${label} ${runs.micros.toFixed(2)} µs/step${options.detail ? ` (collections ${runs.gcMicros.toFixed(2)})` : ""}`;
  const detail = options.detail
    ? ` [${(await microsPerStep([{ plan: large, perRound: 7 }], { run, rounds: 1, coldHeap: true }))[0]!.micros.toFixed(2)} µs/step after a forced full GC before each run; ` +
      `peak heap ${(await peakHeapMb(large, run)).toFixed(1)} MB]`
    : "";
  return `${shape}: ${size("1,000 steps", smallRuns!)}; ${size("10,000 steps", largeRuns!)}${detail}; 10x steps cost ${growth.toFixed(1)}x time`;
}

/**
 * Independent steps through a tool that allows two calls at once (a rate-limited API):
 * the steps waiting for it must cost no more than the others.
 */
export async function limitedToolLine(sizes: number[]): Promise<string> {
  const limited = defineTool({
    name: "limited",
    description: "Two at a time",
    input: z.object({}),
    concurrency: 2,
    execute: () => Promise.resolve(1),
  });
  const plans = sizes.map((size): PlanInput => ({
    steps: Array.from({ length: size }, (_, index) => ({ id: index, task: "n", tool: "limited", args: {} })),
  }));
  const timedRun = async (plan: PlanInput) => {
    const started = process.hrtime.bigint();
    const result = await executePlan({ plan, tools: [limited], concurrency: 8 });
    if (result.status !== "completed") throw new Error(result.status);
    return Number(process.hrtime.bigint() - started) / 1000 / plan.steps.length;
  };
  // The waiting steps' path is compiled late (the first runs cost ten times more): warm it up.
  for (let run = 0; run < 3; run += 1) await timedRun(plans.at(-1)!);
  const medians: number[] = [];
  for (const plan of plans) {
    const times: number[] = [];
    for (let run = 0; run < 7; run += 1) times.push(await timedRun(plan));
    medians.push(times.sort((a, b) => a - b)[3]!);
  }
  return `a tool limited to 2 at a time, async, µs/step: ${sizes.map((size, index) => `${size.toLocaleString("en-US")}: ${medians[index]!.toFixed(2)}`).join(" · ")}`;
}

/**
 * Where the cost per step turns up: chains of every size in turns, about 20,000 steps of
 * each per round. It stays flat while a run's allocations fit in the young generation.
 */
export async function sizeCurve(build: (size: number) => PlanInput, sizes: number[]): Promise<string> {
  const plans = sizes.map((size) => ({ plan: build(size), perRound: Math.max(1, Math.round(20_000 / size)) }));
  await microsPerStep(plans, { run: runWithPlanloop, rounds: 1 });
  const medians = await microsPerStep(plans, { run: runWithPlanloop, rounds: 10 });
  return `chain, µs/step by size: ${sizes.map((size, index) => `${size.toLocaleString("en-US")}: ${medians[index]!.micros.toFixed(2)}`).join(" · ")}`;
}

/** The bare ready-queue engine (bench/bare-engine.ts) on the same zero-work plans. */
export const runWithBareEngine: RunPlan = async (plan) => {
  const outputs = await runBareEngine(plan, () => 1, 8);
  if (outputs.length !== plan.steps.length) throw new Error("the bare engine lost steps");
};

/**
 * planloop against the bare engine in this process, 10,000 steps of `build`, the two taken
 * in turns so that both sample the same moments of a noisy machine: µs per step of each, and
 * the ratio (issue 26: <= 3x).
 */
export async function referenceLine(shape: string, build: (size: number) => PlanInput): Promise<string> {
  const plan = build(10_000);
  const both = [
    { plan, perRound: 1, run: runWithPlanloop },
    { plan, perRound: 1, run: runWithBareEngine },
  ];
  await microsPerStep(both, { run: runWithPlanloop, rounds: 5 });
  const [planloop, bare] = await microsPerStep(both, { run: runWithPlanloop, rounds: 30 });
  return `${shape}, 10,000 steps: planloop ${planloop!.micros.toFixed(2)} µs/step, the bare engine ${bare!.micros.toFixed(2)}: ${(planloop!.micros / bare!.micros).toFixed(1)}x`;
}
