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
import { defineTool, executePlan, memoryStore, type CheckpointStore, type PlanInput } from "../dist/index.js";
import { postgresStore } from "../dist/stores/postgres/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";

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

// LangGraph.js on the same DAGs: in memory, then with its SQLite checkpointer.
const { runWithLangGraph } = await import("./langgraph-runner.js");
const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
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
