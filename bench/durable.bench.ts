// What checkpointing adds per step: the same zero-work fan-out run in memory only, with
// memoryStore, and with sqliteStore (a file in WAL mode), side by side in one process.
// Target (issue 15): SQLite <= 50 µs added per step at 1,000 and 10,000 steps.
// Run: npm run bench:durable
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, executePlan, memoryStore, type CheckpointStore, type PlanInput } from "../dist/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";

const noop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });

function fanOut(size: number): PlanInput {
  const steps = Array.from({ length: size - 1 }, (_, index) => ({ id: index + 1, task: "noop", tool: "noop", args: {} }));
  return { steps: [...steps, { id: size, task: "join", tool: "noop", args: {}, depends_on: steps.map((step) => step.id) }] };
}

let runs = 0;
async function microsecondsPerStep(size: number, store: (() => CheckpointStore) | undefined, rounds: number): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const plan = fanOut(size);
    const opened = store?.();
    const started = performance.now();
    const result = await executePlan({ plan, tools: [noop], concurrency: 8, store: opened, runId: `run-${runs++}` });
    samples.push(((performance.now() - started) * 1000) / size);
    if (result.status !== "completed") throw new Error(result.status);
    await opened?.close();
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const dir = mkdtempSync(join(tmpdir(), "planloop-durable-"));
let files = 0;
const kinds: Array<[string, (() => CheckpointStore) | undefined]> = [
  ["in memory only", undefined],
  ["memoryStore", () => memoryStore()],
  ["sqliteStore", () => sqliteStore({ path: join(dir, `runs-${files++}.sqlite`) })],
];

console.log("# Zero-work fan-out + join, concurrency 8: median µs per step (and added over the run without a store)");
for (const size of [1_000, 10_000]) {
  const rounds = size === 1_000 ? 15 : 5;
  // Warm up every path first.
  for (const [, store] of kinds) await microsecondsPerStep(size, store, 2);
  const base = await microsecondsPerStep(size, undefined, rounds);
  const line = [`${size.toLocaleString("en-US")} steps: in memory only ${base.toFixed(2)}`];
  for (const [name, store] of kinds.slice(1)) {
    const measured = await microsecondsPerStep(size, store, rounds);
    line.push(`${name} ${measured.toFixed(2)} (+${(measured - base).toFixed(2)})`);
  }
  console.log(line.join(" · "));
}
