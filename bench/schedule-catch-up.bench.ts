// Schedules catching up after downtime (issue 54): the first runSchedules pass after a store was
// left unserved for a while, with a one-second schedule (Europe/Berlin) on one SQLite file. The
// pass starts the latest fire time (catch-up 1, a one-step durable plan) and reports the rest as
// missed; its time should not grow with the downtime (goal: under 100 ms after 3 days).
// Run: node --import tsx bench/schedule-catch-up.bench.ts   (REPEATS=5 to change how often each is measured)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, executePlan, runSchedules, saveSchedule, type ScheduleFire } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { FakeClock } from "../src/testing/index.js";

const repeats = Number(process.env.REPEATS ?? 5);
const second = 1000;
const downtimes: Array<[string, number]> = [
  ["1 minute", 60 * second],
  ["1 hour", 3_600 * second],
  ["3 days", 3 * 86_400 * second],
  ["30 days", 30 * 86_400 * second],
  ["1 year", 365 * 86_400 * second],
];

const note = defineTool({ name: "note", description: "notes the fire", input: z.object({ run: z.string() }), execute: () => "ok" });

/** One first pass after `downMs` without a pass: its time (ms), and what it started and passed over. */
async function firstPass(downMs: number): Promise<{ ms: number; started: number; missed: string }> {
  const store = sqliteStore({ path: join(mkdtempSync(join(tmpdir(), "planloop-catch-up-")), "runs.sqlite") });
  const clock = new FakeClock(Date.parse("2026-12-07T08:00:00.250Z"));
  await saveSchedule(store, { name: "every-second", cron: "* * * * * *", tz: "Europe/Berlin", run: null }, clock);
  await clock.advance(downMs);
  const launch = (fire: ScheduleFire) =>
    executePlan({
      plan: { steps: [{ id: 1, task: "note", tool: "note", args: { run: fire.runId } }] },
      tools: [note],
      store,
      runId: fire.runId,
      origin: fire.origin,
      clock,
    });
  const started = performance.now();
  const report = await runSchedules({ store, launch, clock });
  const ms = performance.now() - started;
  await store.close();
  return { ms, started: report.started.length, missed: report.skipped[0]?.reason ?? "none" };
}

console.log(`first runSchedules pass after downtime, a one-second schedule, SQLite file, median of ${repeats}`);
console.log("| downtime | missed fire times | first pass (median) | max |");
console.log("| --- | --- | --- | --- |");
await firstPass(60 * second); // warm up: modules, Intl, croner
for (const [label, downMs] of downtimes) {
  const times: number[] = [];
  let started = 0;
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    const pass = await firstPass(downMs);
    times.push(pass.ms);
    started = pass.started;
  }
  times.sort((a, b) => a - b);
  const missed = (downMs / second - started).toLocaleString("en");
  console.log(
    `| ${label} | ${missed} (started ${started}) | ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms | ${times.at(-1)!.toFixed(1)} ms |`,
  );
}
