// Scale-out on BullMQ, on loopback (issue 16): BullMQ's own round trip for a zero-work job;
// what planloop adds per step on top of it (target <= 1 ms p50); a 1,000-step fan-out of
// 20 ms steps over 1, 2 and 4 worker processes (throughput, makespan over the lower bound
// for the workers' slots); a 200-step layered DAG at concurrency 8 (target <= 1.10); small
// runs beside a big run on a shared queue (issue 28 §7: fair share).
// Needs PLANLOOP_REDIS_URL (eval "$(scripts/services.sh start)"). Run: npm run bench:bullmq
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, executePlan, type PlanInput, type PlanloopEvent } from "../dist/index.js";
import { bullmqRunner } from "../dist/workers/index.js";

const redis = process.env.PLANLOOP_REDIS_URL;
if (!redis) {
  console.log('PLANLOOP_REDIS_URL is not set: start Redis with eval "$(scripts/services.sh start)"');
  process.exit(1);
}
const { Queue, QueueEvents } = await import("bullmq");
const { hostname, port } = new URL(redis);
const connection = { host: hostname, port: Number(port), maxRetriesPerRequest: null };
const sleep = defineTool({ name: "sleep", description: "waits", input: z.object({ ms: z.number() }), execute: () => "done" });
const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) * p)]!;

function startWorkers(count: number, queue: string, concurrency: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, [
        "--import",
        "tsx",
        join(import.meta.dirname, "bullmq-worker.ts"),
        redis!,
        queue,
        String(concurrency),
      ]);
      return new Promise<ChildProcess>((resolve) => child.stdout!.once("data", () => resolve(child)));
    }),
  );
}
const stopWorkers = (children: ChildProcess[]) =>
  Promise.all(children.map((child) => new Promise((resolve) => (child.once("close", resolve), child.kill("SIGTERM")))));

let runs = 0;
async function runPlan(
  plan: PlanInput,
  queue: string,
  concurrency: number,
  shared?: ReturnType<typeof bullmqRunner>,
): Promise<{ ms: number; events: PlanloopEvent[] }> {
  const runner = shared ?? bullmqRunner({ connection: redis!, queue });
  const events: PlanloopEvent[] = [];
  const started = performance.now();
  const result = await executePlan({
    plan,
    tools: [sleep],
    runner,
    concurrency,
    runId: `bench-${process.pid}-${runs++}`,
    onEvent: (event) => events.push(event),
  });
  const ms = performance.now() - started;
  if (shared === undefined) await runner.close();
  if (result.status !== "completed") throw new Error(`${result.status}: ${result.reason}`);
  return { ms, events };
}

// 1. BullMQ alone: add a zero-work job, wait for its completion event, one at a time.
{
  const queue = `bench-raw-${process.pid}`;
  const workers = await startWorkers(1, queue, 1);
  const raw = new Queue(queue, { connection });
  const events = new QueueEvents(queue, { connection });
  await events.waitUntilReady();
  const samples: number[] = [];
  for (let index = 0; index < 400; index += 1) {
    const started = performance.now();
    const job = await raw.add(
      "tool",
      { kind: "tool", runId: "raw", stepKey: String(index), attempt: 1, call: { id: "c", name: "sleep", arguments: { ms: 0 } } },
      { removeOnComplete: { age: 60 } },
    );
    await job.waitUntilFinished(events);
    if (index >= 50) samples.push(performance.now() - started);
  }
  await Promise.all([raw.close(), events.close()]);
  await stopWorkers(workers);
  const base = percentile(samples, 0.5);

  // 2. The same zero-work step through planloop: a chain of 300, each step's start to end.
  const chainQueue = `bench-chain-${process.pid}`;
  const chainWorkers = await startWorkers(1, chainQueue, 1);
  const chain: PlanInput = {
    steps: Array.from({ length: 300 }, (_, index) => ({
      id: index + 1,
      task: "s",
      tool: "sleep",
      args: { ms: 0 },
      depends_on: index === 0 ? [] : [index],
    })),
  };
  await runPlan({ steps: chain.steps.slice(0, 50) }, chainQueue, 1);
  const { ms } = await runPlan(chain, chainQueue, 1);
  await stopWorkers(chainWorkers);
  const perStep = ms / chain.steps.length;
  console.log(`# Round trip of a zero-work step on loopback`);
  console.log(`BullMQ alone: p50 ${base.toFixed(2)} ms, p90 ${percentile(samples, 0.9).toFixed(2)} ms`);
  console.log(
    `planloop on BullMQ (chain of 300, makespan / steps): ${perStep.toFixed(2)} ms per step; added ${(perStep - base).toFixed(2)} ms (target <= 1 ms)`,
  );
}

// 3. A 1,000-step fan-out of 20 ms steps over 1, 2 and 4 worker processes of 8 slots each.
console.log("# 1,000 steps of 20 ms, fan-out, 8 slots per worker process");
for (const count of [1, 2, 4]) {
  const queue = `bench-fan-${process.pid}-${count}`;
  const workers = await startWorkers(count, queue, 8);
  const plan: PlanInput = {
    steps: Array.from({ length: 1_000 }, (_, index) => ({ id: index + 1, task: "s", tool: "sleep", args: { ms: 20 } })),
  };
  await runPlan({ steps: plan.steps.slice(0, 40) }, queue, count * 8);
  const { ms } = await runPlan(plan, queue, count * 8);
  await stopWorkers(workers);
  const lower = Math.ceil(1_000 / (count * 8)) * 20;
  console.log(
    `${count} worker(s): ${ms.toFixed(0)} ms, ${(1_000 / (ms / 1000)).toFixed(0)} steps/s, makespan / lower bound ${(ms / lower).toFixed(3)} (lower bound ${lower} ms)`,
  );
}

// 4. A 200-step layered DAG (25 layers of 8, each step on one of the layer before), 20 ms steps, concurrency 8.
{
  const queue = `bench-layers-${process.pid}`;
  const workers = await startWorkers(Number(process.env.LAYER_WORKERS ?? 2), queue, 8);
  const plan: PlanInput = {
    steps: Array.from({ length: 200 }, (_, index) => ({
      id: index + 1,
      task: "s",
      tool: "sleep",
      args: { ms: 20 },
      depends_on: index < 8 ? [] : [index - 7],
    })),
  };
  await runPlan({ steps: plan.steps.slice(0, 16) }, queue, 8);
  const ratios: number[] = [];
  for (let round = 0; round < 3; round += 1) ratios.push((await runPlan(plan, queue, 8)).ms / (25 * 20));
  await stopWorkers(workers);
  console.log("# 200-step layered DAG (25 layers of 8), 20 ms steps, concurrency 8, 2 worker processes");
  console.log(
    `makespan / lower bound: median ${percentile(ratios, 0.5).toFixed(3)} (runs: ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")}; target <= 1.10)`,
  );
}

// 5. Fair share: 19 small runs (5 steps of 20 ms each) started beside one big run (400 steps of
// 20 ms, concurrency 200: it queues 200 at once) on 2 worker processes of 8 slots, all from one coordinator: each small
// run's makespan over the same small run alone, with fair share on and off (first in, first out).
for (const fairShare of [true, false]) {
  const queue = `bench-fair-${process.pid}-${fairShare}`;
  const workers = await startWorkers(2, queue, 8);
  const runner = bullmqRunner({ connection: redis!, queue, fairShare });
  const fanOut = (size: number): PlanInput => ({
    steps: Array.from({ length: size }, (_, index) => ({ id: index + 1, task: "s", tool: "sleep", args: { ms: 20 } })),
  });
  await runPlan(fanOut(16), queue, 16, runner);
  const alone: number[] = [];
  for (let round = 0; round < 5; round += 1) alone.push((await runPlan(fanOut(5), queue, 5, runner)).ms);
  const big = runPlan(fanOut(400), queue, 200, runner);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const small = await Promise.all(Array.from({ length: 19 }, () => runPlan(fanOut(5), queue, 5, runner)));
  const bigMs = (await big).ms;
  await runner.close();
  await stopWorkers(workers);
  const ratios = small.map(({ ms }) => ms / percentile(alone, 0.5));
  if (fairShare) console.log("# 19 small runs (5 steps) beside a big run (400 steps), 2 workers x 8 slots, one coordinator");
  console.log(
    `fair share ${fairShare ? "on " : "off"}: small run makespan / alone: median ${percentile(ratios, 0.5).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)} (alone ${percentile(alone, 0.5).toFixed(0)} ms; the big run ${bigMs.toFixed(0)} ms)`,
  );
}
