// Bytes allocated per zero-work plan step (issue 26: <= 500), everything a run makes
// included: the plan's reading and check, the graph, the records, the calls, the result.
// Measured with V8's sampling heap profiler (a sample every 256 bytes allocated, garbage
// included), which also says where the bytes go. The bare ready-queue engine is measured
// the same way beside it. Started by bench/scheduler-overhead.ts; alone:
// npm run build && node --import tsx bench/step-bytes.ts
import { Session } from "node:inspector/promises";
import { runBareEngine } from "./bare-engine.js";
import { chain, fanOut, runWithPlanloop, type RunPlan } from "./zero-work.js";
import type { PlanInput } from "../dist/index.js";

interface ProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: ProfileNode[];
}

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");

/** Bytes allocated per step over `runs` runs after a warm-up, and the functions that allocated most. */
async function bytesPerStep(plan: PlanInput, run: RunPlan, runs = 10): Promise<{ bytes: number; top: string }> {
  for (let warm = 0; warm < 20; warm += 1) await run(plan);
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  for (let round = 0; round < runs; round += 1) await run(plan);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  const steps = runs * plan.steps.length;
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode) => {
    const file = node.callFrame.url.replace(/^.*\/(dist|bench)\//, "");
    const key = `${node.callFrame.functionName || "(anonymous)"} (${file || "builtin"})`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head as unknown as ProfileNode);
  const top = [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([key, size]) => `${key} ${(size / steps).toFixed(0)}`)
    .join(", ");
  return { bytes: total / steps, top };
}

const bare: RunPlan = async (plan) => {
  await runBareEngine(plan, () => 1, 8);
};
for (const [shape, build] of [
  ["fan-out + join", fanOut],
  ["chain", chain],
] as const) {
  const plan = build(10_000);
  const planloop = await bytesPerStep(plan, runWithPlanloop);
  const reference = await bytesPerStep(plan, bare);
  console.log(
    `bytes allocated per step, ${shape}, 10,000 steps, synchronous tool: ${planloop.bytes.toFixed(0)} B (the bare engine ${reference.bytes.toFixed(0)}); most from ${planloop.top}`,
  );
}
