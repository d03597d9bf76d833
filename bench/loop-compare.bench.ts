// bench:loop's workload on two builds in one process, interleaved: an older build's dist/ (a
// `git worktree add /tmp/old <commit>` with node_modules linked in, built there with
// `npx tsc -p tsconfig.build.json`) and today's (this checkout's dist/, or a second path).
// Separate processes on a shared machine differ by more than the changes measured; one process,
// alternating which build goes first each round, compares like with like. Without --expose-gc:
// bench:loop's forced collection before each run adds a cost per run that both builds pay.
// Run: npm run bench:loop-compare -- <older dist/> [<newer dist/>] [--rounds 9]
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loopWorkload, type LoopLibrary } from "./loop-workload.js";

const argv = process.argv.slice(2);
const roundsAt = argv.indexOf("--rounds");
const rounds = roundsAt === -1 ? 9 : Number(argv[roundsAt + 1]);
const paths = argv.filter((arg, index) => !arg.startsWith("--") && index !== roundsAt + 1);
const baselinePath = paths[0] ?? process.env.PLANLOOP_BASELINE_DIST;
if (baselinePath === undefined || !(rounds > 0)) {
  console.error("Usage: npm run bench:loop-compare -- <older build's dist/> [<newer dist/>] [--rounds N]");
  process.exit(2);
}
const todayPath = paths[1] ?? fileURLToPath(new URL("../dist", import.meta.url));
const load = async (dist: string) => (await import(pathToFileURL(resolve(dist, "index.js")).href)) as LoopLibrary;

const builds = [loopWorkload(await load(baselinePath)), loopWorkload(await load(todayPath))];
const sizes = [2_500, 5_000, 10_000];
const samples = builds.map(() => sizes.map(() => ({ wall: [] as number[], cpu: [] as number[] })));

// The loop reaches its steady speed only after several thousand steps: warm both builds past it.
for (let warm = 0; warm < 4; warm++) for (const measure of builds) await measure(5_000);
for (let round = 0; round < rounds; round++) {
  for (const [size, steps] of sizes.entries()) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const { microsPerStep, cpuMicrosPerStep } = await builds[which]!(steps);
      samples[which]![size]!.wall.push(microsPerStep);
      samples[which]![size]!.cpu.push(cpuMicrosPerStep);
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const shown = (values: number[]) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)})`;
console.log(`baseline ${baselinePath}, today ${todayPath}`);
console.log(`${rounds} rounds, alternating order; µs/step, median (min); cpu: the process's CPU time`);
console.log("steps\tbaseline\ttoday\t\tratio\t\tcpu: baseline\ttoday\t\tratio");
for (const [size, steps] of sizes.entries()) {
  const [old, now] = [samples[0]![size]!, samples[1]![size]!];
  const ratio = (a: number[], b: number[]) => `${(median(b) / median(a)).toFixed(2)} (${(Math.min(...b) / Math.min(...a)).toFixed(2)})`;
  const wall = `${shown(old.wall)}\t${shown(now.wall)}\t${ratio(old.wall, now.wall)}`;
  console.log(`${steps}\t${wall}\t${shown(old.cpu)}\t${shown(now.cpu)}\t${ratio(old.cpu, now.cpu)}`);
}
