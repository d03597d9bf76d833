// The plan executor's scheduling quality and overhead, on real timers, against the built
// package (dist/), as users run it. Run: npm run bench:scheduler
import { spawnSync } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { z } from "zod";
import { defineTool, executePlan, toolStepCallId, type PlanInput } from "../dist/index.js";
import { FakeClock } from "../dist/testing/index.js";
import { seededRandom } from "../src/core/seeded-random.js";
// `--compare` runs every workload through LangGraph.js too, in the same process. It is loaded
// only then: LangGraph's async context tracking slows every promise in the process.
const compare = process.argv.includes("--compare") && process.env.PLANLOOP_BENCH_PART !== "overhead";
/** V8's young generation is 16 MB by default; this is the setting the second pass runs with. */
const youngGeneration = "--max-semi-space-size=32";
const { runWithLangGraph } = compare ? await import("./langgraph-runner.js") : { runWithLangGraph: undefined as never };

/**
 * The simulated service: answers after exactly `ms`. A Node timer fires up to a millisecond
 * late (libuv counts whole milliseconds), which along a critical path of ten steps would be
 * the service's lateness, not the scheduler's: the timer is set a little short and the rest
 * is waited out turn by turn of the event loop.
 */
function serviceDelay(ms: number): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const check = () => (performance.now() >= until ? resolve() : setImmediate(check));
    setTimeout(check, Math.max(0, ms - 2));
  });
}

/** How long each call of `sleep` really slept, by call id, timed inside the tool. */
const slept = new Map<string, number>();
const sleepTool = defineTool({
  name: "sleep",
  description: "Sleeps for ms",
  input: z.object({ ms: z.number() }),
  execute: async ({ ms }, { callId }) => {
    const started = performance.now();
    await serviceDelay(ms);
    slept.set(String(callId), performance.now() - started);
    return ms;
  },
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

/** LangGraph's makespan on the same DAG, over the nominal lower bound. */
async function langGraphRatio(seed: number): Promise<number> {
  const { plan, lowerBound } = layeredDag(seed, { estimates: true });
  const started = performance.now();
  await runWithLangGraph(plan, (step) => serviceDelay((step.args as { ms: number }).ms), 8);
  return (performance.now() - started) / lowerBound;
}

/**
 * Makespan over two lower bounds: from the nominal latencies, and from how long each call of
 * the simulated service really took (it can still overrun when the process is busy; that is
 * the service's lateness, not the scheduler's). What the second ratio has left is the
 * scheduler: its order, its start-up and the time from one step's end to the next one's start.
 */
async function makespanRatios(seed: number, estimates: boolean): Promise<{ nominal: number; measured: number }> {
  const { plan, lowerBound } = layeredDag(seed, { estimates });
  slept.clear();
  const started = performance.now();
  const result = await executePlan({ plan, tools: [sleepTool], concurrency: 8 });
  const makespan = performance.now() - started;
  if (result.status !== "completed") throw new Error(result.status);
  const took = (id: string | number) => slept.get(toolStepCallId(id))!;
  const finish = new Map<string, number>();
  for (const step of plan.steps) {
    finish.set(String(step.id), took(step.id) + Math.max(0, ...(step.depends_on ?? []).map((id) => finish.get(String(id))!)));
  }
  const work = plan.steps.reduce((sum, step) => sum + took(step.id), 0);
  return { nominal: makespan / lowerBound, measured: makespan / Math.max(Math.max(...finish.values()), work / 8) };
}

/** The order alone: the same DAG on a fake clock, where steps take exactly their latency and the executor no time. */
async function scheduledRatio(seed: number): Promise<number> {
  const { plan, lowerBound } = layeredDag(seed, { estimates: true });
  const clock = new FakeClock();
  const sleep = defineTool({
    name: "sleep",
    description: "Sleeps for ms on the fake clock",
    input: z.object({ ms: z.number() }),
    execute: ({ ms }) => new Promise<number>((resolve) => clock.setTimeout(() => resolve(ms), ms)),
  });
  const result = await clock.run(executePlan({ plan, tools: [sleep], concurrency: 8, clock }));
  if (result.status !== "completed") throw new Error(result.status);
  return Math.max(...result.timeline.map((bar) => bar.endedAt)) / lowerBound;
}

function fanOut(size: number): PlanInput {
  const steps: PlanInput["steps"] = Array.from({ length: size - 1 }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {} }));
  steps.push({ id: "join", task: "join", tool: "noop", args: {}, depends_on: steps.map((step) => step.id) });
  return { steps };
}

function chain(size: number): PlanInput {
  return { steps: Array.from({ length: size }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {}, depends_on: index === 0 ? [] : [index - 1] })) };
}

type Engine = "planloop" | "langgraph";

async function runOnce(plan: PlanInput, engine: Engine): Promise<void> {
  if (engine === "langgraph") {
    const done = await runWithLangGraph(plan, () => {}, 8);
    if (done !== plan.steps.length) throw new Error(`LangGraph ran ${done} of ${plan.steps.length} steps`);
    return;
  }
  const result = await executePlan({ plan, tools: [noop], concurrency: 8 });
  if (result.status !== "completed") throw new Error(result.status);
}

// Garbage collection time, added up while `collections.counting` is set.
const collections = { counting: false, ms: 0 };
new PerformanceObserver((list) => {
  if (collections.counting) for (const entry of list.getEntries()) collections.ms += entry.duration;
}).observe({ entryTypes: ["gc"] });

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
  plans: Array<{ plan: PlanInput; perRound: number }>,
  options: { engine: Engine; rounds: number; coldHeap?: boolean },
): Promise<Array<{ micros: number; gcMicros: number }>> {
  const times: number[][] = plans.map(() => []);
  const collecting = plans.map(() => 0);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [which, { plan, perRound }] of plans.entries()) {
      for (let run = 0; run < perRound; run += 1) {
        if (options.coldHeap) (globalThis as { gc?: () => void }).gc?.();
        // Entries of earlier collections arrive late: let them land before counting starts.
        await new Promise((resolve) => setImmediate(resolve));
        Object.assign(collections, { counting: true, ms: 0 });
        const started = process.hrtime.bigint();
        await runOnce(plan, options.engine);
        times[which]!.push(Number(process.hrtime.bigint() - started) / 1000 / plan.steps.length);
        await new Promise((resolve) => setImmediate(resolve));
        collections.counting = false;
        collecting[which]! += collections.ms;
      }
    }
  }
  return plans.map(({ plan, perRound }, which) => {
    const sorted = times[which]!.sort((a, b) => a - b);
    return { micros: sorted[Math.floor(sorted.length / 2)]!, gcMicros: (collecting[which]! * 1000) / (options.rounds * perRound * plan.steps.length) };
  });
}

/** Peak heap growth of one run that starts after a full collection, sampled every 5 ms. */
async function peakHeapMb(plan: PlanInput, engine: Engine): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  await runOnce(plan, engine);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return (peak - baseline) / 2 ** 20;
}

/**
 * One line per shape: 1,000 and 10,000 steps taken in turns (`rounds` rounds of `smallPerRound`
 * small runs, then one large run). `detail` adds the cold-heap time and the peak heap (too
 * slow for LangGraph).
 */
async function overheadReport(
  shape: string,
  build: (size: number) => PlanInput,
  options: { engine: Engine; rounds: number; smallPerRound: number; detail: boolean },
): Promise<string> {
  const { engine } = options;
  const small = build(1_000);
  const large = build(10_000);
  await microsPerStep([{ plan: small, perRound: 3 }, { plan: large, perRound: 1 }], { engine, rounds: 1 });
  const [smallRuns, largeRuns] = await microsPerStep([{ plan: small, perRound: options.smallPerRound }, { plan: large, perRound: 1 }], { engine, rounds: options.rounds });
  const growth = (largeRuns!.micros * 10) / smallRuns!.micros;
  // (Collection time is shown for planloop only: LangGraph's long runs report theirs late.)
  const size = (label: string, runs: { micros: number; gcMicros: number }) =>
    `${label} ${runs.micros.toFixed(2)} µs/step${options.detail ? ` (collections ${runs.gcMicros.toFixed(2)})` : ""}`;
  const detail = options.detail
    ? ` [${(await microsPerStep([{ plan: large, perRound: 7 }], { engine, rounds: 1, coldHeap: true }))[0]!.micros.toFixed(2)} µs/step after a forced full GC before each run; ` +
      `peak heap ${(await peakHeapMb(large, engine)).toFixed(1)} MB]`
    : "";
  return `${shape}: ${size("1,000 steps", smallRuns!)}; ${size("10,000 steps", largeRuns!)}${detail}; 10x steps cost ${growth.toFixed(1)}x time`;
}

// The zero-work part runs in Nodes of its own (PLANLOOP_BENCH_PART=overhead), as JMH forks a
// JVM per benchmark: what the makespan part leaves behind (code compiled for other plans, V8's
// choices of which allocations to place straight in the old generation) would otherwise weigh
// on it. The bench starts itself that way twice: with V8's defaults, and with a larger young
// generation, to show what the default costs.
const overheadOnly = process.env.PLANLOOP_BENCH_PART === "overhead";

if (!overheadOnly) {
  console.log("# Random layered DAG: 200 steps, 5-100 ms, concurrency 8");
  console.log("# makespan / lower bound, with the bound from nominal latencies | from measured step durations");
  // One run first, so the measured runs do not pay for compiling the executor.
  await makespanRatios(99, true);
  for (const [label, estimates] of [["longest remaining path first", true], ["FIFO (no estimates)", false]] as const) {
    const ratios = [];
    for (const seed of [1, 2, 3, 4, 5]) ratios.push(await makespanRatios(seed, estimates));
    const mean = (values: number[]) => (values.reduce((a, b) => a + b) / values.length).toFixed(3);
    console.log(
      `${label}: nominal ${ratios.map((ratio) => ratio.nominal.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.nominal))}) | ` +
        `measured ${ratios.map((ratio) => ratio.measured.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.measured))})`,
    );
  }

  const scheduled = [];
  for (const seed of [1, 2, 3, 4, 5]) scheduled.push(await scheduledRatio(seed));
  console.log(`the order alone (fake clock, no overhead): ${scheduled.map((ratio) => ratio.toFixed(4)).join(", ")}`);

  if (compare) {
    const ratios = [];
    for (const seed of [1, 2, 3, 4, 5]) ratios.push(await langGraphRatio(seed));
    console.log(`LangGraph.js (supersteps): nominal ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")} (mean ${(ratios.reduce((a, b) => a + b) / ratios.length).toFixed(3)})`);
  }
}

if (overheadOnly) {
  console.log(
    process.execArgv.includes(youngGeneration)
      ? `\n# The same in a Node started with ${youngGeneration}: a 10,000-step run's records fit in the young generation`
      : "\n# Zero-work steps, concurrency 8, in a Node of their own: median µs per step of back-to-back runs after a warm-up, the two sizes in turns (mean µs per step in garbage collection)",
  );
  for (const [shape, build] of [["fan-out + join", fanOut], ["chain", chain]] as const) {
    // 30 rounds of ten 1,000-step runs and one 10,000-step run.
    console.log(await overheadReport(shape, build, { engine: "planloop", rounds: 30, smallPerRound: 10, detail: true }));
  }
  console.log(await sizeCurve(chain, [500, 2_000, 5_000, 10_000, 20_000, 50_000]));
  console.log(await limitedToolLine([1_000, 5_000]));
}

/**
 * Independent steps through a tool that allows two calls at once (a rate-limited API):
 * the steps waiting for it must cost no more than the others.
 */
async function limitedToolLine(sizes: number[]): Promise<string> {
  const limited = defineTool({ name: "limited", description: "Two at a time", input: z.object({}), concurrency: 2, execute: () => Promise.resolve(1) });
  const plans = sizes.map((size): PlanInput => ({ steps: Array.from({ length: size }, (_, index) => ({ id: index, task: "n", tool: "limited", args: {} })) }));
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
async function sizeCurve(build: (size: number) => PlanInput, sizes: number[]): Promise<string> {
  const plans = sizes.map((size) => ({ plan: build(size), perRound: Math.max(1, Math.round(20_000 / size)) }));
  await microsPerStep(plans, { engine: "planloop", rounds: 1 });
  const medians = await microsPerStep(plans, { engine: "planloop", rounds: 10 });
  return `chain, µs/step by size: ${sizes.map((size, index) => `${size.toLocaleString("en-US")}: ${medians[index]!.micros.toFixed(2)}`).join(" · ")}`;
}

if (!overheadOnly) {
  for (const flags of [[], [youngGeneration]]) {
    const child = spawnSync(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
      env: { ...process.env, PLANLOOP_BENCH_PART: "overhead" },
      stdio: "inherit",
    });
    if (child.status !== 0) throw new Error(`the zero-work run${flags.length > 0 ? ` with ${flags.join(" ")}` : ""} failed`);
  }
}

if (compare) {
  console.log("\n# The same zero-work workloads through LangGraph.js (1,000 steps: median of 3; 10,000 steps: one run)");
  for (const [shape, build] of [["fan-out + join", fanOut], ["chain", chain]] as const) {
    console.log(await overheadReport(shape, build, { engine: "langgraph", rounds: 1, smallPerRound: 3, detail: false }));
  }
}
