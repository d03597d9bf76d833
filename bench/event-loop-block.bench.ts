// How long a durable run holds its owner's event loop (issue 52): a report pipeline of 2,000
// steps (bench/report-pipeline.ts) run by Plan-and-Execute on a SQLite store with grounding
// "strict" (the check runs on the answer, on the repaired answer and on the cut one). A 1 ms
// interval probe records every stretch the loop did not turn; each of the longest is named by
// the run's events around it. A lease is renewed every third of its length (10 s by default):
// the longest block must stay far below that.
// Run: npm run bench:event-loop [steps]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { planAndExecute, type PlanloopEvent } from "../dist/index.js";
import { sqliteStore } from "../dist/stores/sqlite/index.js";
import { ScriptedModel } from "../dist/testing/index.js";
import { pipelineAnswer, pipelinePlan, pipelineTools } from "./report-pipeline.js";

const size = Number(process.argv[2] ?? 2_000);

/** Each event as a short label at the time it was emitted. */
const marks: Array<{ at: number; label: string }> = [];
const label = (event: PlanloopEvent) => ("purpose" in event ? `${event.type}:${event.purpose}` : event.type);

/**
 * A stretch the probe could not run: from its last turn to its next, less the interval; and
 * the CPU time the process spent in it (on a busy machine the wall time is longer than the work).
 */
interface Block {
  from: number;
  to: number;
  ms: number;
  cpuMs: number;
}
const blocks: Block[] = [];
let last = 0;
let lastCpu = process.cpuUsage();
/** Starts a 1 ms interval that records each stretch of more than 3 ms between its turns. */
function startProbe(): NodeJS.Timeout {
  last = performance.now();
  lastCpu = process.cpuUsage();
  return setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (now - last > 3) {
      const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
      blocks.push({ from: last, to: now, ms: now - last - 1, cpuMs });
    }
    last = now;
    lastCpu = cpu;
  }, 1);
}
const delay = monitorEventLoopDelay({ resolution: 1 });

/** What the loop was doing: the events emitted during the block, else the last one before it. */
function phaseOf(block: Block): string {
  const during = marks.filter((mark) => mark.at >= block.from && mark.at <= block.to).map((mark) => mark.label);
  const before = marks.filter((mark) => mark.at < block.from).at(-1)?.label ?? "start";
  const all = [before, ...during].join(" ");
  const phase = all.includes("plan-created")
    ? "planning: plan read and checked, plan run started"
    : all.includes("grounding-end") || before === "model-call-end:solve"
      ? "grounding check"
      : during.some((mark) => mark.startsWith("model-call-start:solve"))
        ? "rendering the answer prompt"
        : /strategy-end|run-end/.test(all)
          ? "result building + journal"
          : /step-/.test(all)
            ? "scheduling + journal writes"
            : "other";
  const shown = [...new Set(during)].slice(0, 4).join(", ");
  return `${phase} (after ${before}${shown ? `; during: ${shown}` : ""})`;
}

const folder = mkdtempSync(join(tmpdir(), "planloop-event-loop-"));
const store = sqliteStore({ path: join(folder, "runs.sqlite") });
const plan = JSON.stringify(pipelinePlan(size));
const answer = pipelineAnswer(size);
const planner = new ScriptedModel([
  { purpose: "plan", reply: { type: "final", content: plan } },
  { purpose: "solve", reply: { type: "final", content: answer } },
  // The repair asked for by "strict" comes back unchanged; the wrong sentences are then cut.
  { purpose: "solve", reply: { type: "final", content: answer } },
]);

delay.enable();
const probe = startProbe();
const started = performance.now();
const result = await planAndExecute({
  task: "Write the week's orders report for every region",
  planner,
  tools: pipelineTools,
  store,
  runId: "event-loop-bench",
  concurrency: 16,
  grounding: "strict",
  onEvent: (event) => marks.push({ at: performance.now(), label: label(event) }),
});
const elapsed = performance.now() - started;
// The run's last stretch ends when it returns: let the probe turn once more to see it.
await new Promise((resolve) => setTimeout(resolve, 5));
delay.disable();
clearInterval(probe);

const counts = result.provenance?.counts;
console.log(
  `${size.toLocaleString("en-US")}-step run on SQLite, grounding strict: ${result.status} in ${(elapsed / 1000).toFixed(1)} s; ` +
    `${counts?.claims ?? 0} claims (${counts?.supported ?? 0} supported, ${counts?.uncited ?? 0} uncited, ${counts?.unsupported ?? 0} unsupported), ` +
    `${result.provenance?.removed.length ?? 0} sentences cut, answer ${(answer.length / 1024).toFixed(0)} KiB`,
);
console.log(
  `event loop delay (monitorEventLoopDelay): max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, mean ${(delay.mean / 1e6).toFixed(2)} ms`,
);
const longest = blocks.sort((a, b) => b.ms - a.ms).slice(0, 6);
console.log(
  `longest event-loop block: ${(longest[0]?.ms ?? 0).toFixed(1)} ms (a lease of 30 s is renewed every 10,000 ms); the longest blocks:`,
);
for (const block of longest)
  console.log(`  ${block.ms.toFixed(1).padStart(8)} ms (cpu ${block.cpuMs.toFixed(0).padStart(4)} ms)  ${phaseOf(block)}`);
store.close();
rmSync(folder, { recursive: true, force: true });
