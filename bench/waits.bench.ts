// Durable waits at the size a pipeline reaches (issue 40): runs that wait hold no process, and
// a wake pass continues them.
//   1. Wake skew: 1,000 runs on one SQLite file, each waiting on a timer 1 to 10 s away (real
//      time), woken by a loop calling wakeDueRuns every TICK_MS (default 1000, as planloop
//      serve): how late each run's next step ran after its time (p50, p95, max).
//   2. 10,000 runs waiting at once on one SQLite file (no process holds them): the time to put
//      them there, the file's size, one wake pass with none due, and one pass waking all of them,
//      with the process's peak RSS.
// Run: npm run bench:waits   (TIMERS=1000 RUNS=10000 TICK_MS=1000 to change the sizes)
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, executePlan, wakeDueRuns } from "../dist/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { FakeClock } from "../dist/testing/index.js";

const timers = Number(process.env.TIMERS ?? 1000);
const waitingRuns = Number(process.env.RUNS ?? 10_000);
const tickMs = Number(process.env.TICK_MS ?? 1000);

const skews: number[] = [];
const woke = defineTool({
  name: "woke",
  description: "notes how late the run woke",
  input: z.object({ until: z.string() }),
  execute: ({ until }) => {
    skews.push(Date.now() - Date.parse(until));
    return "ok";
  },
});

function plan(wait: { forMs: number } | { until: string }) {
  return {
    steps: [
      { id: 1, task: "wait", wait },
      { id: 2, task: "note", tool: "woke", args: { until: "$1.waitedUntil" }, depends_on: [1] },
    ],
  };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function wakeSkew(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-bench-skew-"));
  const store = sqliteStore({ path: join(dir, "runs.sqlite") });
  const start = Date.now();
  for (let index = 0; index < timers; index++) {
    const result = await executePlan({
      plan: plan({ forMs: 1000 + Math.floor(Math.random() * 9000) }),
      tools: [woke],
      store,
      runId: `t${index}`,
    });
    if (result.status !== "waiting") throw new Error(`run t${index} did not wait: ${result.status}`);
  }
  console.log(`wake skew: ${timers} runs waiting (started in ${Date.now() - start} ms); waking every ${tickMs} ms`);
  while (skews.length < timers) {
    const report = await wakeDueRuns({ store, tools: [woke], limit: timers, concurrency: 8 });
    if (report.failed.length > 0) throw new Error(`a wake failed: ${report.failed[0]!.error}`);
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await store.close();
  console.log(
    `  skew p50 ${percentile(skews, 50)} ms, p95 ${percentile(skews, 95)} ms, max ${Math.max(...skews)} ms (a tick is ${tickMs} ms)`,
  );
}

async function manyWaiting(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "planloop-bench-waiting-"));
  const path = join(dir, "runs.sqlite");
  let store = sqliteStore({ path });
  const clock = new FakeClock(Date.now());
  const until = new Date(clock.now() + 3_600_000).toISOString();
  let start = performance.now();
  for (let index = 0; index < waitingRuns; index++) {
    const result = await executePlan({ plan: plan({ until }), tools: [woke], store, runId: `w${index}`, clock });
    if (result.status !== "waiting") throw new Error(`run w${index} did not wait: ${result.status}`);
  }
  const made = performance.now() - start;
  // Closed, the write-ahead log is folded into the file: its size is what the runs take.
  await store.close();
  const bytes = statSync(path).size;
  console.log(
    `${waitingRuns} runs waiting on one SQLite file: made in ${(made / 1000).toFixed(1)} s; the file ${mb(bytes)} (${Math.round(bytes / waitingRuns)} bytes a run)`,
  );
  store = sqliteStore({ path });
  start = performance.now();
  const idle = await wakeDueRuns({ store, tools: [woke], clock, limit: waitingRuns });
  console.log(`  a wake pass with none due: ${(performance.now() - start).toFixed(1)} ms (${idle.woken.length} woken)`);
  await clock.advance(3_600_000);
  skews.length = 0;
  start = performance.now();
  const all = await wakeDueRuns({ store, tools: [woke], clock, limit: waitingRuns, concurrency: 8 });
  const pass = performance.now() - start;
  const completed = all.woken.filter((run) => run.status === "completed").length;
  console.log(
    `  a wake pass waking all: ${(pass / 1000).toFixed(1)} s (${completed} completed, ${all.failed.length} failed; ${(pass / waitingRuns).toFixed(2)} ms a run)`,
  );
  console.log(`  peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
  await store.close();
}

await wakeSkew();
await manyWaiting();
