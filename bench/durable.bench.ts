// What checkpointing adds per step: the same zero-work DAG run in memory only and with each
// store, side by side in one process; then LangGraph.js on the same DAG, without and with its
// SQLite checkpointer (@langchain/langgraph-checkpoint-sqlite), loaded last because its async
// context tracking slows every promise in the process.
// Targets (issue 15): SQLite <= 50 µs added per step at 1,000 and 10,000 steps; Postgres on
// loopback <= 1 ms. Postgres is measured when PLANLOOP_POSTGRES_URL is set
// (eval "$(scripts/services.sh start)").
// Run: npm run bench:durable
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, type CheckpointStore, type JournalEntry, type PlanInput } from "../dist/index.js";
import { postgresStore } from "../dist/stores/postgres/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { loadBenchExtra } from "./bench-extras.js";

const noop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });

function fanOut(size: number): PlanInput {
  const steps = Array.from({ length: size - 1 }, (_, index) => ({ id: index + 1, task: "noop", tool: "noop", args: {} }));
  return { steps: [...steps, { id: size, task: "join", tool: "noop", args: {}, depends_on: steps.map((step) => step.id) }] };
}

function chain(size: number): PlanInput {
  return {
    steps: Array.from({ length: size }, (_, index) => ({
      id: index + 1,
      task: "noop",
      tool: "noop",
      args: {},
      depends_on: index === 0 ? [] : [index],
    })),
  };
}

const median = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

let runs = 0;
async function microsecondsPerStep(plan: () => PlanInput, store: (() => CheckpointStore) | undefined, rounds: number): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const input = plan();
    const opened = store?.();
    const started = performance.now();
    const result = await executePlan({ plan: input, tools: [noop], concurrency: 8, store: opened, runId: `run-${process.pid}-${runs++}` });
    samples.push(((performance.now() - started) * 1000) / input.steps.length);
    if (result.status !== "completed") throw new Error(result.status);
    await opened?.close();
  }
  return median(samples);
}

const dir = mkdtempSync(join(tmpdir(), "planloop-durable-"));
let files = 0;
const kinds: Array<[string, (() => CheckpointStore) | undefined]> = [
  ["in memory only", undefined],
  ["memoryStore", () => memoryStore()],
  ["sqliteStore", () => sqliteStore({ path: join(dir, `runs-${files++}.sqlite`) })],
];
const postgresUrl = process.env.PLANLOOP_POSTGRES_URL;
if (postgresUrl) kinds.push(["postgresStore", () => postgresStore({ connectionString: postgresUrl })]);
else console.log("(PLANLOOP_POSTGRES_URL is not set: Postgres is not measured)");

const workloads: Array<[string, () => PlanInput, number]> = [
  ["fan-out of 1,000", () => fanOut(1_000), 15],
  ["fan-out of 10,000", () => fanOut(10_000), 5],
  ["chain of 1,000", () => chain(1_000), 7],
];
console.log("# Zero-work DAGs, concurrency 8: median µs per step (added over the same run without a store)");
for (const [name, plan, rounds] of workloads) {
  // Warm up every path first.
  for (const [, store] of kinds) await microsecondsPerStep(plan, store, 2);
  const base = await microsecondsPerStep(plan, undefined, rounds);
  const line = [`${name}: planloop in memory only ${base.toFixed(2)}`];
  for (const [kind, store] of kinds.slice(1)) {
    const measured = await microsecondsPerStep(plan, store, rounds);
    line.push(`${kind} ${measured.toFixed(2)} (+${(measured - base).toFixed(2)})`);
  }
  console.log(line.join(" · "));
}

// The window of issue 52: from a tool's return to the commit that keeps its step's end. A kill
// inside it finds the step cut short (it runs once more under its key, or asks). 200 steps of
// 0-20 ms each, concurrency 8, so ends land while siblings run and other commits are in flight.
async function endWindows(store: CheckpointStore): Promise<number[]> {
  const returned = new Map<string, number>();
  const windows: number[] = [];
  const stamp = (entries: readonly JournalEntry[]) => {
    const now = performance.now();
    for (const entry of entries) if (entry.kind === "step-end") windows.push(now - returned.get(entry.stepKey)!);
  };
  // Every method the store's own; append stamps when it is done (at once for a synchronous store).
  const watched = new Proxy(store, {
    get(target, key) {
      if (key === "append")
        return (...args: Parameters<CheckpointStore["append"]>) => {
          const written = target.append(...args);
          return written instanceof Promise ? written.then(() => stamp(args[1])) : stamp(args[1]);
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const timed = defineTool({
    name: "timed",
    description: "Waits ms, then returns",
    input: z.object({ id: z.string(), ms: z.number() }),
    execute: async ({ id, ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      returned.set(id, performance.now());
      return id;
    },
  });
  const steps = Array.from({ length: 200 }, (_, index) => ({
    id: `s${index}`,
    task: "t",
    tool: "timed",
    args: { id: `s${index}`, ms: (index * 7) % 21 },
  }));
  await executePlan({ plan: { steps }, tools: [timed], concurrency: 8, store: watched, runId: `window-${process.pid}-${runs++}` });
  return windows.sort((a, b) => a - b);
}
console.log("# From a tool's return to its step's end kept (ms): median · p99 · max, 200 steps of 0-20 ms, concurrency 8");
for (const [kind, store] of kinds.slice(2)) {
  const opened = store!();
  const windows = await endWindows(opened);
  const at = (share: number) => windows[Math.min(windows.length - 1, Math.floor(share * windows.length))]!.toFixed(2);
  console.log(`${kind}: ${at(0.5)} · ${at(0.99)} · ${windows.at(-1)!.toFixed(2)}`);
  await opened.close();
}

// LangGraph.js on the same DAGs: in memory, then with its SQLite checkpointer.
const { runWithLangGraph } = await import("./langgraph-runner.js");
const { SqliteSaver } = await loadBenchExtra<{ SqliteSaver: { fromConnString(path: string): unknown } }>(
  "@langchain/langgraph-checkpoint-sqlite",
);
async function langGraphMicroseconds(plan: () => PlanInput, withSaver: boolean, rounds: number): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const input = plan();
    const saver = withSaver ? SqliteSaver.fromConnString(join(dir, `langgraph-${files++}.sqlite`)) : undefined;
    const started = performance.now();
    await runWithLangGraph(input, () => {}, 8, saver ? { saver, threadId: `t-${runs++}` } : undefined);
    samples.push(((performance.now() - started) * 1000) / input.steps.length);
  }
  return median(samples);
}
console.log("# LangGraph.js on the same DAGs: median µs per step (added by SqliteSaver)");
for (const [name, plan] of workloads.filter(([name]) => !name.includes("10,000"))) {
  await langGraphMicroseconds(plan, true, 1);
  const base = await langGraphMicroseconds(plan, false, 3);
  const saved = await langGraphMicroseconds(plan, true, 3);
  console.log(`${name}: LangGraph.js in memory ${base.toFixed(1)} · with SqliteSaver ${saved.toFixed(1)} (+${(saved - base).toFixed(1)})`);
}
