// planloop ui with a large code-mode run: a program that makes `calls` calls (50 at a time with
// Promise.all), then one that waits for approval, in SQLite; each call a step of the run. Prints
// the run's time, each API answer's time and size (the run page first and again, every step a
// page at a time, the timeline page), and the event loop's longest stall while the server
// answered: the cost of drawing a program's calls as steps. Run: npm run bench:ui-code [calls]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { z } from "zod";
import { codeMode, defineTool } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { startUi } from "../src/ui/index.js";

const calls = Number(process.argv[2] ?? 10_000);
const folder = mkdtempSync(join(tmpdir(), "planloop-ui-code-"));
const store = sqliteStore({ path: join(folder, "runs.sqlite") });
const echo = defineTool({
  name: "echo",
  description: "echo",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `echo ${text}`,
});
const pay = defineTool({ name: "pay", description: "pay", input: z.object({}), needsApproval: true, execute: () => "paid" });
const program = `const batch = 50;
for (let from = 0; from < ${calls}; from += batch) {
  const size = Math.min(batch, ${calls} - from);
  await Promise.all(Array.from({ length: size }, (_, at) => tools.echo({ text: "t" + (from + at) })));
}
return await tools.pay({});`;
const model = new ScriptedModel([{ type: "final", content: "```js\n" + program + "\n```" }]);
let started = performance.now();
const cpu = process.cpuUsage();
const ran = await codeMode({
  task: "echo them all, then pay",
  model,
  tools: [echo, pay],
  store,
  runId: "code",
  concurrency: 50,
  grounding: false,
  budget: { maxToolCalls: calls + 10 },
  sandbox: { cpuMs: 600_000 },
});
const spent = process.cpuUsage(cpu);
// CPU time as well as wall time: on a busy machine the wall time says more about the others.
console.log(
  `ran a program of ${calls.toLocaleString("en")} calls (${ran.status}) in ${((performance.now() - started) / 1000).toFixed(1)} s, ${((spent.user + spent.system) / 1e6).toFixed(1)} s of CPU`,
);

const ui = await startUi({ store });
const base = ui.url.slice(0, ui.url.indexOf("/?"));
const headers = { "x-planloop-token": ui.token };
const stalls = monitorEventLoopDelay({ resolution: 10 });
stalls.enable();
const get = async (what: string, path: string) => {
  const asked = performance.now();
  const text = await (await fetch(base + path, { headers })).text();
  console.log(`${what}: ${(performance.now() - asked).toFixed(0)} ms, ${(text.length / 1024).toFixed(0)} KiB`);
  return text;
};
const page = JSON.parse(await get("GET /api/runs/code (first)", "/api/runs/code")) as { row: { steps: string }; stepCount: number };
await get("GET /api/runs/code (again, unchanged)", "/api/runs/code");
console.log(`steps: ${page.row.steps} in the runs list, ${page.stepCount.toLocaleString("en")} listed`);
started = performance.now();
let read = 0;
for (;;) {
  const answer = JSON.parse(await (await fetch(`${base}/api/runs/code/steps?from=${read}&limit=5000`, { headers })).text()) as {
    steps: unknown[];
    stepCount: number;
  };
  read += answer.steps.length;
  if (answer.steps.length === 0 || read >= answer.stepCount) break;
}
console.log(`all ${read.toLocaleString("en")} steps, 5,000 a page: ${(performance.now() - started).toFixed(0)} ms`);
await get("GET /api/runs/code/trace.html", "/api/runs/code/trace.html");
stalls.disable();
console.log(`the event loop's longest stall meanwhile: ${(stalls.max / 1e6).toFixed(0)} ms`);
await ui.close();
store.close();
rmSync(folder, { recursive: true, force: true });
