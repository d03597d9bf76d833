// planloop ui with a very large run (issue 44 item 8): a run of 50,000 steps waiting for one
// approval, in SQLite. Prints each API answer's time and size, first and again (the page is
// made once per change), all steps read a page at a time, and the event loop's longest stall
// while the server answered. Run: npm run bench:ui-big [steps]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { z } from "zod";
import { defineTool, executePlan } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { startUi } from "../src/ui/index.js";

const size = Number(process.argv[2] ?? 50_000);
const folder = mkdtempSync(join(tmpdir(), "planloop-ui-big-"));
const store = sqliteStore({ path: join(folder, "runs.sqlite") });
const echo = defineTool({
  name: "echo",
  description: "echo",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `echo ${text}`,
});
const pay = defineTool({ name: "pay", description: "pay", input: z.object({}), needsApproval: true, execute: () => "paid" });
const plan = {
  steps: [
    ...Array.from({ length: size }, (_, index) => ({
      id: index + 1,
      task: `step ${index + 1}`,
      tool: "echo",
      args: { text: `t${index}` },
      ...(index >= 50 ? { depends_on: [index - 49] } : {}),
    })),
    { id: size + 1, task: "pay", tool: "pay", args: {} },
  ],
};
let started = performance.now();
const ran = await executePlan({ plan, tools: [echo, pay], store, runId: "big", concurrency: 50 });
console.log(`ran a ${size.toLocaleString("en")}-step plan (${ran.status}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

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
await get("GET /api/runs/big (first)", "/api/runs/big");
await get("GET /api/runs/big (again, unchanged)", "/api/runs/big");
await get("GET /api/inbox (first)", "/api/inbox");
await get("GET /api/inbox (again)", "/api/inbox");
started = performance.now();
let read = 0;
let bytes = 0;
for (;;) {
  const text = await (await fetch(`${base}/api/runs/big/steps?from=${read}&limit=5000`, { headers })).text();
  bytes += text.length;
  const page = JSON.parse(text) as { steps: unknown[]; stepCount: number };
  read += page.steps.length;
  if (page.steps.length === 0 || read >= page.stepCount) break;
}
console.log(
  `all ${read.toLocaleString("en")} steps, 5,000 a page: ${(performance.now() - started).toFixed(0)} ms, ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
);
await get("GET /api/runs/big/trace.html", "/api/runs/big/trace.html");
stalls.disable();
console.log(`the event loop's longest stall meanwhile: ${(stalls.max / 1e6).toFixed(0)} ms`);
await ui.close();
store.close();
rmSync(folder, { recursive: true, force: true });
