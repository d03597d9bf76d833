// Which source files one plan step crosses between `planAndExecute` and the tool and back,
// measured rather than counted by hand. V8's precise coverage counts every function's calls
// while the plan runs (from its `plan-created` event, once the plan is read and checked, to
// its `run-end`, once the result is made), for a plan of N tool steps and one of 2N: a file
// with a function called at least once more per extra step is on a step's path. The files a
// step is handed through before and after (the strategy's loop, the run's setup and result)
// run once per plan, not per step; docs/executor.md lists them with these.
// Run: npm run build && node --import tsx bench/step-path.ts
import { Session } from "node:inspector";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineTool, planAndExecute, type ModelRequest, type PlanloopEvent } from "../dist/index.js";

const tool = defineTool({ name: "noop", description: "Returns at once", input: z.object({ n: z.number() }), execute: ({ n }) => n });

/** A planner that writes N independent tool steps, then answers. */
function planner(size: number) {
  const plan = { steps: Array.from({ length: size }, (_, index) => ({ id: index + 1, task: "n", tool: "noop", args: { n: index } })) };
  return async (request: ModelRequest) => ({ type: "final" as const, content: request.purpose === "plan" ? JSON.stringify(plan) : "done" });
}

type Coverage = { result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }> };
const session = new Session();
session.connect();
// A session on this thread answers at once: coverage can be taken inside an event listener.
const take = (): Coverage => {
  let coverage: Coverage | undefined;
  session.post("Profiler.takePreciseCoverage", (error, result) => {
    if (error) throw error;
    coverage = result as unknown as Coverage;
  });
  return coverage!;
};
session.post("Profiler.enable");
session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** Calls per function (file and name) while a plan of `size` steps ran. */
async function callsOf(size: number): Promise<Map<string, number>> {
  let window: Coverage | undefined;
  let open = false;
  const onEvent = (event: PlanloopEvent) => {
    if (event.type === "plan-created" && !open) {
      take();
      open = true;
    } else if (event.type === "run-end" && open && window === undefined) window = take();
  };
  const result = await planAndExecute({ task: "t", planner: planner(size), tools: [tool], concurrency: 8, onEvent });
  if (result.status !== "completed" || window === undefined) throw new Error(`the plan ended ${result.status}`);
  const calls = new Map<string, number>();
  for (const script of window.result) {
    if (!script.url.includes("/dist/")) continue;
    const file = fileURLToPath(script.url)
      .replace(/^.*\/dist\//, "src/")
      .replace(/\.js$/, ".ts");
    script.functions.forEach((fn, position) => {
      const key = `${file}\t${fn.functionName || "(anonymous)"}\t${position}`;
      calls.set(key, (calls.get(key) ?? 0) + (fn.ranges[0]?.count ?? 0));
    });
  }
  return calls;
}

const size = 500;
await callsOf(size); // a warm-up: everything compiled once
const small = await callsOf(size);
const large = await callsOf(2 * size);
const perStep = new Map<string, Set<string>>();
for (const [key, count] of large) {
  if ((count - (small.get(key) ?? 0)) / size < 0.99) continue;
  const [file, name] = key.split("\t") as [string, string];
  perStep.set(file, (perStep.get(file) ?? new Set()).add(name));
}
console.log(
  `# Files whose functions run once or more per plan step while the plan runs (planAndExecute, ${size} vs ${2 * size} tool steps):`,
);
for (const [file, names] of [...perStep].sort()) console.log(`${file}: ${[...names].join(", ")}`);
console.log(`${perStep.size} files`);
