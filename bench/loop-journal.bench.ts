// How a durable ReAct loop's journal grows with its turns: loops of 50, 100, 200 and 400 turns
// into a SQLite file, each tool result a few hundred characters. Prints the journal's bytes
// (JSON) and the file's size per turn; linear growth keeps the bytes per turn flat.
// Run: npm run bench:loop-journal
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../src/index.js";
import { sqliteStore } from "../src/stores/sqlite/index.js";
import { pageReader, search } from "./search-loop.js";

async function measure(turns: number) {
  const folder = mkdtempSync(join(tmpdir(), "planloop-loop-journal-"));
  const file = join(folder, "runs.sqlite");
  const store = sqliteStore({ path: file });
  const started = performance.now();
  const result = await runAgent({
    model: pageReader(turns),
    tools: [search],
    messages: [{ role: "user", content: "read every page" }],
    store,
    runId: "loop",
    maxSteps: turns,
  });
  const elapsed = performance.now() - started;
  if (result.status !== "completed") throw new Error(`the loop ended ${result.status}`);
  const run = await store.getRun("loop");
  const journalBytes = JSON.stringify(run!.journal).length;
  const pausedBytes = run!.journal.filter((entry) => entry.kind === "paused").reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
  await store.close();
  const fileBytes = statSync(file).size;
  rmSync(folder, { recursive: true, force: true });
  return { journalBytes, pausedBytes, fileBytes, elapsed };
}

await measure(50); // warms the JIT and the SQLite library up
console.log("durable ReAct loop into a SQLite file (keepModelCalls on)");
console.log("turns  journal bytes  per turn  snapshots per turn  file bytes  per turn  ms per turn");
for (const turns of [50, 100, 200, 400]) {
  const { journalBytes, pausedBytes, fileBytes, elapsed } = await measure(turns);
  console.log(
    [
      String(turns).padStart(5),
      String(journalBytes).padStart(13),
      (journalBytes / turns).toFixed(0).padStart(9),
      (pausedBytes / turns).toFixed(0).padStart(19),
      String(fileBytes).padStart(11),
      (fileBytes / turns).toFixed(0).padStart(9),
      (elapsed / turns).toFixed(2).padStart(12),
    ].join("  "),
  );
}
