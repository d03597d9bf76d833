// What keeping model calls costs a stored run: a ReAct loop of 200 turns (each tool result a
// few hundred characters) and a plan-and-execute run, each into a SQLite file with
// keepModelCalls on and off. Prints the bytes the model-call entries take per call, the
// file's growth per call, and the time per turn either way.
// Run: npm run bench:model-calls
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { pageReader, search } from "./search-loop.js";

const turns = 200;
const model = pageReader(turns);

const statusOf = (run: { result?: unknown } | undefined) => (run?.result as { status?: string } | undefined)?.status;

async function measure(keepModelCalls: boolean) {
  const folder = mkdtempSync(join(tmpdir(), "planloop-calls-"));
  const file = join(folder, "runs.sqlite");
  const store = sqliteStore({ path: file });
  const started = performance.now();
  await runAgent({
    model,
    tools: [search],
    messages: [{ role: "user", content: "read every page" }],
    store,
    runId: "loop",
    keepModelCalls,
    maxSteps: turns,
  });
  if (statusOf(await store.getRun("loop")) !== "completed") throw new Error("the loop did not complete");
  const elapsed = performance.now() - started;
  const run = await store.getRun("loop");
  const callBytes = run!.journal
    .filter((entry) => entry.kind === "model-call")
    .reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
  const journalBytes = JSON.stringify(run!.journal).length;
  await store.close();
  const fileBytes = statSync(file).size;
  rmSync(folder, { recursive: true, force: true });
  return { elapsed, callBytes, journalBytes, fileBytes };
}

// A first pass warms the JIT and the SQLite library up; the figures are the second.
await measure(true);
await measure(false);
const kept = await measure(true);
const none = await measure(false);
const perCall = (bytes: number) => (bytes / turns).toFixed(0);
console.log(`ReAct loop, ${turns} model calls, SQLite file store`);
console.log(`  model-call entries: ${kept.callBytes} bytes in all, ${perCall(kept.callBytes)} bytes per call (JSON)`);
console.log(
  `  whole journal: ${kept.journalBytes} bytes kept, ${none.journalBytes} without (${perCall(kept.journalBytes - none.journalBytes)} bytes per call)`,
);
console.log(`  file: ${kept.fileBytes} bytes kept, ${none.fileBytes} without (${perCall(kept.fileBytes - none.fileBytes)} bytes per call)`);
console.log(`  time per turn: ${(kept.elapsed / turns).toFixed(3)} ms kept, ${(none.elapsed / turns).toFixed(3)} ms without`);
