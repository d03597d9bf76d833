// The plan executor's scheduling quality and overhead, on real timers, against the built
// package (dist/), as users run it. Run: npm run bench:scheduler
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineTool, executePlan, latencyBook, toolStepCallId, type LatencyBook, type PlanInput } from "../dist/index.js";
import { FakeClock } from "../dist/testing/index.js";
import { seededRandom } from "../src/core/seeded-random.js";
import { chain, fanOut, overheadReport, youngGeneration } from "./zero-work.js";
// `--compare` runs the workloads through LangGraph.js too. It is loaded only then:
// LangGraph's async context tracking slows every promise in the process.
const compare = process.argv.includes("--compare");
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
const sleeper = (name: string) =>
  defineTool({
    name,
    description: "Sleeps for ms",
    input: z.object({ ms: z.number() }),
    execute: async ({ ms }, { callId }) => {
      const started = performance.now();
      await serviceDelay(ms);
      slept.set(String(callId), performance.now() - started);
      return ms;
    },
  });
const sleepTool = sleeper("sleep");
/** Four services, each with its own range of latencies (5-15, 20-40, 50-70, 80-100 ms). */
const kinds = [5, 20, 50, 80].map((low, kind) => ({ tool: sleeper(`service${kind}`), low, spread: low === 5 ? 11 : 21 }));

/**
 * 200 steps in 10 layers of 20; each depends on 1-3 steps of the layer before; 5-100 ms each,
 * or (`mixed`) each through one of the four services, within its range. `estimates`: each
 * step's own latency; `toolMeans`: its service's mean latency, as a caller who knows only the
 * services would write it.
 */
function layeredDag(
  seed: number,
  options: { estimates: boolean; mixed?: boolean; toolMeans?: boolean },
): { plan: PlanInput; lowerBound: number } {
  const random = seededRandom(seed);
  const layers = 10;
  const width = 20;
  const steps: PlanInput["steps"] = [];
  const finish = new Map<string, number>();
  let totalWork = 0;
  for (let layer = 0; layer < layers; layer += 1) {
    for (let slot = 0; slot < width; slot += 1) {
      const id = `L${layer}-${slot}`;
      const kind = options.mixed ? kinds[Math.floor(random() * kinds.length)]! : undefined;
      const ms = kind ? kind.low + Math.floor(random() * kind.spread) : 5 + Math.floor(random() * 96);
      const dependsOn =
        layer === 0
          ? []
          : [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => `L${layer - 1}-${Math.floor(random() * width)}`))];
      totalWork += ms;
      finish.set(id, ms + Math.max(0, ...dependsOn.map((dependency) => finish.get(dependency)!)));
      steps.push({
        id,
        task: id,
        tool: kind ? kind.tool.name : "sleep",
        args: { ms },
        depends_on: dependsOn,
        ...(options.estimates ? { estimateMs: ms } : {}),
        ...(options.toolMeans && kind ? { estimateMs: kind.low + (kind.spread - 1) / 2 } : {}),
      });
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
async function makespanRatios(
  seed: number,
  estimates: boolean,
  options: { latencies?: LatencyBook | undefined; mixed?: boolean } = {},
): Promise<{ nominal: number; measured: number }> {
  const { plan, lowerBound } = layeredDag(seed, { estimates, mixed: options.mixed ?? false });
  slept.clear();
  const started = performance.now();
  const tools = [sleepTool, ...kinds.map((kind) => kind.tool)];
  const result = await executePlan({ plan, tools, concurrency: 8, latencies: options.latencies });
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

/**
 * The order alone: the same DAG on a fake clock, where steps take exactly their latency and
 * the executor no time (a simulation of the schedule; real timers add the process's lateness).
 */
async function scheduledRatio(seed: number, options: Parameters<typeof layeredDag>[1] = { estimates: true }): Promise<number> {
  const { plan, lowerBound } = layeredDag(seed, options);
  const clock = new FakeClock();
  const sleepers = ["sleep", ...kinds.map((kind) => kind.tool.name)].map((name) =>
    defineTool({
      name,
      description: "Sleeps for ms on the fake clock",
      input: z.object({ ms: z.number() }),
      execute: ({ ms }) => new Promise<number>((resolve) => clock.setTimeout(() => resolve(ms), ms)),
    }),
  );
  const result = await clock.run(executePlan({ plan, tools: sleepers, concurrency: 8, clock }));
  if (result.status !== "completed") throw new Error(result.status);
  return Math.max(...result.timeline.map((bar) => bar.endedAt)) / lowerBound;
}

console.log("# Random layered DAG: 200 steps, 5-100 ms, concurrency 8");
console.log("# makespan / lower bound, with the bound from nominal latencies | from measured step durations");
// One run first, so the measured runs do not pay for compiling the executor.
await makespanRatios(99, true);
// Without estimates: a first run orders by step count; a second run of the same plan with the
// book the first one filled orders by the latencies it learned.
const books = new Map<number, LatencyBook>();
const bookOf = (seed: number) => books.get(seed) ?? books.set(seed, latencyBook()).get(seed)!;
for (const [label, estimates, learn, mixed] of [
  ["with estimates (longest remaining path first)", true, false, false],
  ["no estimates, first run (nothing learned: step count, then the run's typical step)", false, true, false],
  ["no estimates, second run (learned latencies)", false, true, false],
  ["four services, with estimates", true, false, true],
  ["four services, no estimates, first run (each service learned from its first step)", false, false, true],
] as const) {
  const ratios = [];
  for (const seed of [1, 2, 3, 4, 5])
    ratios.push(await makespanRatios(seed, estimates, { latencies: learn ? bookOf(seed) : undefined, mixed }));
  const mean = (values: number[]) => (values.reduce((a, b) => a + b) / values.length).toFixed(3);
  console.log(
    `${label}: nominal ${ratios.map((ratio) => ratio.nominal.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.nominal))}) | ` +
      `measured ${ratios.map((ratio) => ratio.measured.toFixed(3)).join(", ")} (mean ${mean(ratios.map((ratio) => ratio.measured))})`,
  );
}

const simulated = async (options: Parameters<typeof layeredDag>[1]) => {
  const ratios = [];
  for (const seed of [1, 2, 3, 4, 5]) ratios.push(await scheduledRatio(seed, options));
  const mean = ratios.reduce((a, b) => a + b) / ratios.length;
  return `${ratios.map((ratio) => ratio.toFixed(4)).join(", ")} (mean ${mean.toFixed(4)})`;
};
console.log(`the order alone (fake clock, no overhead), with estimates: ${await simulated({ estimates: true })}`);
// Issue 26: a first run whose latencies follow its tools, within 1% of what knowing each
// tool's mean latency gives. Both simulated, next to the measured line above.
console.log(
  `four services, simulated: known tool means ${await simulated({ estimates: false, mixed: true, toolMeans: true })} | ` +
    `no estimates, first run ${await simulated({ estimates: false, mixed: true })}`,
);

if (compare) {
  const ratios = [];
  for (const seed of [1, 2, 3, 4, 5]) ratios.push(await langGraphRatio(seed));
  console.log(
    `LangGraph.js (supersteps): nominal ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")} (mean ${(ratios.reduce((a, b) => a + b) / ratios.length).toFixed(3)})`,
  );
}

// The zero-work part runs in Node processes of its own, as JMH forks a JVM per benchmark: what
// the makespan part leaves behind (code compiled for other plans, V8's choices of which
// allocations to place straight in the old generation) would otherwise weigh on it. Twice:
// with V8's defaults, and with a larger young generation, to show what the default costs.
const overheadScript = fileURLToPath(new URL("./scheduler-overhead.ts", import.meta.url));
for (const flags of [[], [youngGeneration]]) {
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, overheadScript], { stdio: "inherit" });
  if (child.status !== 0) throw new Error(`the zero-work run${flags.length > 0 ? ` with ${flags.join(" ")}` : ""} failed`);
}

if (compare) {
  console.log("\n# The same zero-work workloads through LangGraph.js (1,000 steps: median of 3; 10,000 steps: one run)");
  const run = async (plan: PlanInput) => {
    const done = await runWithLangGraph(plan, () => {}, 8);
    if (done !== plan.steps.length) throw new Error(`LangGraph ran ${done} of ${plan.steps.length} steps`);
  };
  for (const [shape, build] of [
    ["fan-out + join", fanOut],
    ["chain", chain],
  ] as const) {
    console.log(await overheadReport(shape, build, { run, rounds: 1, smallPerRound: 3, detail: false }));
  }
}
