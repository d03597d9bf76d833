// Which source files one plan step crosses between `planAndExecute` and the tool and back,
// measured rather than counted by hand: V8's precise coverage counts every function's calls,
// for a plan of N tool steps and one of 2N. A file with a function called at least once more
// per extra step is on the step's path. Run: npm run bench:step-path
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineTool, planAndExecute, type ModelRequest } from "../dist/index.js";

const tool = defineTool({ name: "noop", description: "Returns at once", input: z.object({ n: z.number() }), execute: ({ n }) => n });

/** A planner that writes N independent tool steps, then answers. */
function planner(size: number) {
  const plan = { steps: Array.from({ length: size }, (_, index) => ({ id: index + 1, task: "n", tool: "noop", args: { n: index } })) };
  return async (request: ModelRequest) =>
    request.purpose === "plan" ? { type: "final" as const, content: JSON.stringify(plan) } : { type: "final" as const, content: "done" };
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** Calls per function (by file and name), from the coverage taken since the last read. */
async function callsOf(size: number): Promise<Map<string, number>> {
  await session.post("Profiler.takePreciseCoverage");
  const result = await planAndExecute({ task: "t", planner: planner(size), tools: [tool], concurrency: 8 });
  if (result.status !== "completed") throw new Error(`the plan ended ${result.status}`);
  const { result: scripts } = await session.post("Profiler.takePreciseCoverage");
  const calls = new Map<string, number>();
  for (const script of scripts) {
    if (!script.url.includes("/dist/")) continue;
    const file = fileURLToPath(script.url)
      .replace(/^.*\/dist\//, "src/")
      .replace(/\.js$/, ".ts");
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      const key = `${file}\t${fn.functionName || "(anonymous)"}@${fn.ranges[0]?.startOffset}`;
      calls.set(key, (calls.get(key) ?? 0) + count);
    }
  }
  return calls;
}

const size = 500;
await callsOf(size); // warm-up: compile everything once
const small = await callsOf(size);
const large = await callsOf(2 * size);
const perStep = new Map<string, string[]>();
for (const [key, count] of large) {
  const extra = (count - (small.get(key) ?? 0)) / size;
  if (extra < 0.99) continue;
  const [file, name] = key.split("\t") as [string, string];
  perStep.set(file, [...(perStep.get(file) ?? []), `${name.replace(/@\d+$/, "")} ×${extra.toFixed(0)}`]);
}
console.log(`# Files whose functions run once or more per plan step (planAndExecute, ${size} vs ${2 * size} tool steps):`);
for (const [file, names] of [...perStep].sort()) console.log(`${file}: ${names.join(", ")}`);
console.log(`${perStep.size} files`);
