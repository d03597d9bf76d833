// How the executor scales from 1,000 to 100,000 steps (issue 20): a wide plan whose
// concurrency is its number of steps, with a tool that answers on the next turn (every step
// overlaps every other) and with a synchronous one (wide-sync); a chain; and a fan-out of
// synchronous tools at concurrency 8. Each case runs in a process of its own, so
// its peak RSS is its own. Targets: the 100,000-step wide plan <= 2 µs per step and <= 300 MB
// peak RSS; growth <= 12x per 10x steps on every path.
// Run: npm run bench:scale
import { execFileSync } from "node:child_process";
import { z } from "zod";
import { defineTool, executePlan, type PlanInput } from "../dist/index.js";
import { chain } from "./zero-work.js";

type Case = "wide" | "wide-sync" | "chain" | "synchronous";
const sizes = [1_000, 10_000, 100_000];

const syncNoop = defineTool({ name: "noop", description: "Returns at once", input: z.object({}), execute: () => 1 });
const asyncNoop = defineTool({ name: "noop", description: "Returns on the next turn", input: z.object({}), execute: async () => 1 });

function planFor(kind: Case, size: number): PlanInput {
  if (kind === "chain") return chain(size);
  return { steps: Array.from({ length: size }, (_, index) => ({ id: index, task: "n", tool: "noop", args: {} })) };
}

async function measure(kind: Case, size: number): Promise<{ usPerStep: number; peakRssMb: number }> {
  const rounds = size >= 100_000 ? 2 : 5;
  // Warm the JIT up on small plans first, so 1,000 steps are not measured cold.
  for (let round = 0; round < 5; round += 1) {
    await executePlan({
      plan: planFor(kind, 1_000),
      tools: [kind === "wide" ? asyncNoop : syncNoop],
      concurrency: kind === "wide" ? 1_000 : 8,
    });
  }
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const plan = planFor(kind, size);
    const started = performance.now();
    const result = await executePlan({
      plan,
      tools: [kind === "wide" ? asyncNoop : syncNoop],
      concurrency: kind.startsWith("wide") ? size : 8,
    });
    samples.push(((performance.now() - started) * 1000) / size);
    if (result.status !== "completed") throw new Error(result.status);
  }
  samples.sort((a, b) => a - b);
  return { usPerStep: samples[Math.floor(samples.length / 2)]!, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

const [, , flag, kind, size] = process.argv;
if (flag === "--case") {
  console.log(JSON.stringify(await measure(kind as Case, Number(size))));
} else {
  console.log("# µs per step (median), peak RSS of the process, growth per 10x steps");
  for (const path of ["wide", "wide-sync", "chain", "synchronous"] as const) {
    const measured = sizes.map((count) => {
      const output = execFileSync(process.execPath, ["--import", "tsx", import.meta.filename, "--case", path, String(count)], {
        encoding: "utf8",
      });
      return { count, ...(JSON.parse(output.trim().split("\n").at(-1)!) as { usPerStep: number; peakRssMb: number }) };
    });
    const cells = measured.map(
      ({ count, usPerStep, peakRssMb }) => `${count.toLocaleString("en-US")}: ${usPerStep.toFixed(2)} µs, ${peakRssMb.toFixed(0)} MB`,
    );
    const growth = measured.slice(1).map((entry, index) => (entry.usPerStep * 10) / measured[index]!.usPerStep);
    console.log(`${path}: ${cells.join(" · ")} · growth per 10x: ${growth.map((value) => `${value.toFixed(1)}x`).join(", ")}`);
  }
}
