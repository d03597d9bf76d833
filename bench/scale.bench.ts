// How the executor scales from 1,000 to 100,000 steps (issue 20): a wide plan whose
// concurrency is its number of steps, with a tool that answers on the next turn (every step
// overlaps every other) and with a synchronous one (wide-sync); a chain; and a fan-out of
// synchronous tools at concurrency 8. Each case runs in a process of its own
// (bench/scale-case.mjs, plain JavaScript on the built package), its peak RSS measured in one
// more process that runs the plan once after the same warm-up.
// Targets: the 100,000-step wide plan <= 2 µs per step and <= 300 MB peak RSS; growth <= 12x
// per 10x steps on every path.
// Run: npm run bench:scale
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const sizes = [1_000, 10_000, 100_000];
const caseScript = fileURLToPath(new URL("./scale-case.mjs", import.meta.url));

console.log("# µs per step (median), peak RSS of the process, growth per 10x steps");
for (const path of ["wide", "wide-sync", "chain", "synchronous"] as const) {
  const measured = sizes.map((count) => {
    const run = (...extra: string[]): unknown => {
      const output = execFileSync(process.execPath, [caseScript, path, String(count), ...extra], { encoding: "utf8" });
      return JSON.parse(output.trim().split("\n").at(-1)!);
    };
    const { usPerStep } = run() as { usPerStep: number };
    const { peakRssMb } = run("memory") as { peakRssMb: number };
    return { count, usPerStep, peakRssMb };
  });
  const cells = measured.map(
    ({ count, usPerStep, peakRssMb }) => `${count.toLocaleString("en-US")}: ${usPerStep.toFixed(2)} µs, ${peakRssMb.toFixed(0)} MB`,
  );
  const growth = measured.slice(1).map((entry, index) => (entry.usPerStep * 10) / measured[index]!.usPerStep);
  console.log(`${path}: ${cells.join(" · ")} · growth per 10x: ${growth.map((value) => `${value.toFixed(1)}x`).join(", ")}`);
}
